// SEP-2792 language preference in plain JavaScript: the Accept-Language
// grammar, negotiation, RFC 4647 lookup and the mirror agreement check.
//
// Written from RFC 9110 §12.5.4 and §5.6.1, RFC 4647 §2.1, §3.3.1 and §3.4,
// SEP-2792 and the project's decisions (docs/decisions.md: D1-D5, G1, G2,
// M1-M10), for the TypeScript SDK test server (sep2792_server.mjs). No
// dependency.
//
// Run as a script it answers the `mcp-lang match --jsonl` protocol for the
// ops `parse`, `negotiate`, `lookup` and `agree` (one JSON request per stdin
// line, one JSON answer per stdout line), so the shared test cases under
// `testdata/` can hold it to the same answers as the Rust crates.

import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A value outside the grammar: the byte offset and what was expected there. */
export class Malformed extends Error {
    constructor(offset, expected) {
        super(`malformed Accept-Language: expected ${expected} at byte ${offset}`);
        this.offset = offset;
        this.expected = expected;
    }
}

const alpha = b => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
const digit = b => b >= 0x30 && b <= 0x39;
const alnum = b => alpha(b) || digit(b);

function skipOws(data, i) {
    while (i < data.length && (data[i] === 0x20 || data[i] === 0x09)) i += 1;
    return i;
}

/** A language range (RFC 4647 §2.1) at `i`: returns its end. */
function range(data, i) {
    if (i < data.length && data[i] === 0x2a) return i + 1; // "*"
    if (i >= data.length || !alpha(data[i])) throw new Malformed(i, 'language range');
    let start = i;
    while (i < data.length && alpha(data[i]) && i - start < 8) i += 1;
    if (i < data.length && alnum(data[i])) throw new Malformed(i, 'end of subtag');
    while (i < data.length && data[i] === 0x2d) { // "-"
        i += 1;
        start = i;
        while (i < data.length && alnum(data[i]) && i - start < 8) i += 1;
        if (i === start) throw new Malformed(i, 'subtag');
        if (i < data.length && alnum(data[i])) throw new Malformed(i, 'end of subtag');
    }
    return i;
}

/** A qvalue (RFC 9110 §12.4.2) at `i`: returns [end, thousandths]. */
function qvalue(data, i) {
    if (i >= data.length || (data[i] !== 0x30 && data[i] !== 0x31)) throw new Malformed(i, 'qvalue');
    const one = data[i] === 0x31;
    i += 1;
    if (i < data.length && digit(data[i])) throw new Malformed(i, 'qvalue');
    if (i >= data.length || data[i] !== 0x2e) return [i, one ? 1000 : 0]; // "."
    i += 1;
    let digits = '';
    while (i < data.length && digit(data[i])) {
        if (digits.length === 3 || (one && data[i] !== 0x30)) throw new Malformed(i, 'qvalue');
        digits += String.fromCharCode(data[i]);
        i += 1;
    }
    return [i, one ? 1000 : Number((digits + '000').slice(0, 3))];
}

/**
 * Parses an Accept-Language field value strictly (D2, G1, G2): returns the
 * ranges as [[range, q in thousandths]], empty for a value with no elements;
 * throws Malformed otherwise. The value's UTF-8 bytes are read, so anything
 * outside printable ASCII fails at its byte offset.
 */
export function parse(value) {
    const data = Buffer.from(value, 'utf8');
    const ranges = [];
    let i = 0;
    let afterComma = false; // at the start, OWS must lead to a comma
    for (;;) {
        let j = skipOws(data, i);
        if (j === data.length) {
            if (j > i && !afterComma) throw new Malformed(j, "','");
            return ranges;
        }
        if (data[j] === 0x2c) { // an empty list element
            i = j + 1;
            afterComma = true;
            continue;
        }
        if (j > i && !afterComma) throw new Malformed(j, "','");
        const start = j;
        i = range(data, j);
        const text = data.subarray(start, i).toString('latin1');
        let quality = 1000;
        j = skipOws(data, i);
        if (j < data.length && data[j] === 0x3b) { // ";"
            j = skipOws(data, j + 1);
            if (j >= data.length || (data[j] !== 0x71 && data[j] !== 0x51)) throw new Malformed(j, "'q='");
            if (j + 1 >= data.length || data[j + 1] !== 0x3d) throw new Malformed(j + 1, "'q='");
            [i, quality] = qvalue(data, j + 2);
            j = skipOws(data, i);
            if (j === data.length) {
                if (j > i) throw new Malformed(j, "','");
            } else if (data[j] !== 0x2c) {
                throw new Malformed(j, "','");
            }
        } else if (j === data.length) {
            if (j > i) throw new Malformed(j, "';' or ','");
        } else if (data[j] !== 0x2c) {
            throw new Malformed(j, "';' or ','");
        }
        ranges.push([text, quality]);
        if (j === data.length) return ranges;
        i = j + 1;
        afterComma = true;
    }
}

const subtags = tag => tag.toLowerCase().split('-');

/** RFC 4647 §3.3.1 basic filtering: `r` (not `*`) matches `tag`. */
function filters(r, tag) {
    const [a, b] = [r.toLowerCase(), tag.toLowerCase()];
    return a === b || b.startsWith(a + '-');
}

/** How many leading subtags `r` and `tag` share. */
function common(r, tag) {
    const [a, b] = [subtags(r), subtags(tag)];
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
    return n;
}

/**
 * How close RFC 4647 §3.4 truncation of a range sharing `shared` leading
 * subtags with `tag` comes: null when it reaches none of them (every prefix
 * it could stop at ends in a singleton, M8); else 2k+1 when the longest
 * prefix reached (k subtags) equals the tag, 2k when it only basic-filters
 * it (M6).
 */
function truncationCloseness(tag, shared) {
    const parts = subtags(tag);
    let k = shared;
    while (k > 0 && parts[k - 1].length === 1) k -= 1;
    if (k === 0) return null;
    return 2 * k + (parts.length === k ? 1 : 0);
}

/**
 * Whether `tag` has a script subtag (four letters, after the primary subtag
 * and before any singleton) at a subtag index of `k` or more.
 */
function scriptBeyond(tag, k) {
    const parts = subtags(tag);
    for (let i = 1; i < parts.length; i += 1) {
        if (parts[i].length === 1) return false;
        if (i >= k && /^[a-z]{4}$/.test(parts[i])) return true;
    }
    return false;
}

/**
 * Whether a truncation match crosses an explicit script subtag (D4): it
 * stopped at a prefix of closeness / 2 subtags and reached a tag extending
 * the prefix (an even closeness) rather than equal to it, while the range had
 * a script subtag the truncation dropped or the tag has one beyond the prefix.
 * `zh-Hans` reaches `zh` but never `zh-Hant`; `pt-PT` still reaches `pt-BR`.
 */
function crossesScript(r, tag, closeness) {
    const k = Math.floor(closeness / 2);
    return closeness % 2 === 0 && (scriptBeyond(r, k) || scriptBeyond(tag, k));
}

const EXACT = 2 ** 30;
const MORE_SPECIFIC = 2 ** 30 - 1;
const WILDCARD = 0;

/**
 * The D3 decider of `tag`: the longest non-wildcard range that basic-filters
 * it; at equal length q=0, then the higher q, then the earlier. Returns
 * [range, q, position] or null.
 */
function explicit(ranges, tag) {
    let best = null;
    ranges.forEach(([r, q], position) => {
        if (r === '*' || !filters(r, tag)) return;
        if (best === null) {
            best = [r, q, position];
            return;
        }
        const [bRange, bQ] = best;
        let better;
        if (r.length !== bRange.length) better = r.length > bRange.length;
        else if ((q === 0) !== (bQ === 0)) better = q === 0;
        else better = q > bQ;
        if (better) best = [r, q, position];
    });
    return best;
}

/** The deciding `*`: q=0 first, then the higher q, then the earlier. */
function wildcard(ranges) {
    let best = null;
    ranges.forEach(([r, q], position) => {
        if (r !== '*') return;
        if (best === null
            || ((q === 0) !== (best[0] === 0) && q === 0)
            || ((q === 0) === (best[0] === 0) && q > best[0])) {
            best = [q, position];
        }
    });
    return best;
}

/** D4's score of one supported tag: [q, position, closeness] or null. */
function score(ranges, tag, star) {
    const decider = explicit(ranges, tag);
    if (decider !== null) {
        const [r, q, position] = decider;
        return [q, position, r.length === tag.length ? EXACT : MORE_SPECIFIC];
    }
    let truncated = null;
    ranges.forEach(([r, q], position) => {
        if (r === '*' || q === 0) return; // M1: q=0 only excludes
        if (truncated !== null && q <= truncated[0]) return;
        const closeness = truncationCloseness(tag, common(r, tag));
        if (closeness !== null && !crossesScript(r, tag, closeness)) truncated = [q, position, closeness];
    });
    if (truncated !== null) return truncated;
    if (star !== null) return [star[0], star[1], WILDCARD];
    return null;
}

const REASONS = new Map([[EXACT, 'exact'], [MORE_SPECIFIC, 'more-specific'], [WILDCARD, 'wildcard']]);

function lessThan(a, b) {
    for (let i = 0; i < a.length; i += 1) {
        if (a[i] !== b[i]) return a[i] < b[i];
    }
    return false;
}

/**
 * Picks one supported tag for a preference (decision D4). `value` is the raw
 * `acceptLanguage` (undefined or null when absent; a non-string counts as
 * malformed). Returns [tag, q, reason] with reason one of exact,
 * more-specific, truncated, wildcard, default (nothing acceptable), absent or
 * malformed (the default, with q 1000). Never throws.
 */
export function negotiate(value, supported, fallbackTag) {
    const defaultIndex = supported.findIndex(t => t.toLowerCase() === fallbackTag.toLowerCase());
    const fallback = defaultIndex >= 0 ? supported[defaultIndex] : fallbackTag;
    if (value === undefined || value === null) return [fallback, 1000, 'absent'];
    if (typeof value !== 'string') return [fallback, 1000, 'malformed'];
    let ranges;
    try {
        // Every range counts, however many (M10).
        ranges = parse(value);
    } catch (e) {
        if (e instanceof Malformed) return [fallback, 1000, 'malformed'];
        throw e;
    }
    if (ranges.length === 0) return [fallback, 1000, 'absent'];
    const star = wildcard(ranges);
    let best = null;
    supported.forEach((tag, index) => {
        const s = score(ranges, tag, star);
        if (s === null || s[0] === 0) return;
        const key = [-s[0], s[1], -s[2], index !== defaultIndex ? 1 : 0, index];
        if (best === null || lessThan(key, best[0])) best = [key, index, s];
    });
    if (best === null) return [fallback, 0, 'default'];
    const [, index, [q, , closeness]] = best;
    return [supported[index], q, REASONS.get(closeness) ?? 'truncated'];
}

/** One RFC 4647 §3.4 step: drop the last subtag, then a singleton left last. */
function truncate(parts) {
    parts = parts.slice(0, -1);
    if (parts.length > 0 && parts[parts.length - 1].length === 1) parts = parts.slice(0, -1);
    return parts;
}

/**
 * RFC 4647 §3.4 lookup over `tags` (M2): ranges by q, highest first, each
 * truncated until a prefix equals a tag that no q=0 range excludes under
 * D3; `*` is skipped. Returns that tag as spelled in `tags`, else
 * `fallback`. Throws Malformed for a malformed value.
 */
export function lookup(value, tags, fallback) {
    const ranges = parse(value);
    // A stable sort: among equal weights the earlier range goes first.
    const ordered = ranges.filter(([r, q]) => r !== '*' && q > 0).sort((a, b) => b[1] - a[1]);
    for (const [r] of ordered) {
        let parts = subtags(r);
        while (parts.length > 0) {
            const prefix = parts.join('-');
            for (const tag of tags) {
                if (tag.toLowerCase() === prefix) {
                    const decider = explicit(ranges, tag);
                    if (decider === null || decider[1] > 0) return tag;
                }
            }
            parts = truncate(parts);
        }
    }
    return fallback;
}

const trimOws = line => {
    let [start, end] = [0, line.length];
    while (start < end && (line[start] === 0x20 || line[start] === 0x09)) start += 1;
    while (end > start && (line[end - 1] === 0x20 || line[end - 1] === 0x09)) end -= 1;
    return line.subarray(start, end);
};

/**
 * The field value of repeated field lines: each trimmed of SP and HTAB (RFC
 * 9110 §5.5), joined with ", " in received order (§5.3). Buffers in, a
 * Buffer out.
 */
export function joinedField(lines) {
    const parts = [];
    lines.forEach((line, i) => {
        if (i > 0) parts.push(Buffer.from(', '));
        parts.push(trimOws(line));
    });
    return Buffer.concat(parts);
}

/** `agree`'s `meta` when the request has no `acceptLanguage` at all. */
export const ABSENT = Symbol('absent');

/**
 * Decision D5: header-absent (no field line), bare-header (lines but no
 * `_meta` value), agree or mismatch. `lines` are the raw field line values
 * (Buffers); `meta` is the decoded `_meta` value, untouched, or ABSENT. A
 * non-string `meta` never agrees with a present header.
 */
export function agree(meta, lines) {
    if (lines.length === 0) return 'header-absent';
    if (meta === ABSENT) return 'bare-header';
    if (typeof meta !== 'string') return 'mismatch';
    return Buffer.from(meta, 'utf8').equals(joinedField(lines)) ? 'agree' : 'mismatch';
}

/** One line of the `mcp-lang match --jsonl` protocol. */
function answer(request) {
    switch (request.op) {
        case 'parse':
            try {
                return { valid: true, ranges: parse(request.header) };
            } catch (e) {
                if (e instanceof Malformed) return { valid: false, offset: e.offset, expected: e.expected };
                throw e;
            }
        case 'negotiate': {
            const [selected, q, reason] = negotiate(request.header, request.supported, request.default);
            return { selected, q, reason };
        }
        case 'lookup':
            try {
                return { tag: lookup(request.header, request.tags, request.default) };
            } catch (e) {
                if (e instanceof Malformed) {
                    return { error: `malformed Accept-Language: expected ${e.expected}`, offset: e.offset };
                }
                throw e;
            }
        case 'agree': {
            const meta = request.meta === null || request.meta === undefined ? ABSENT : request.meta;
            const lines = request.lines.map(l => Buffer.from(l, 'utf8'));
            return { agreement: agree(meta, lines) };
        }
        default:
            return { error: `unknown op ${JSON.stringify(request.op)}` };
    }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
        let reply;
        try {
            reply = answer(JSON.parse(line));
        } catch (e) {
            reply = { error: String(e.message ?? e) };
        }
        process.stdout.write(JSON.stringify(reply) + '\n');
    }
}
