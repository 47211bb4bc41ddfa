"""SEP-2792 language preference in plain Python: the Accept-Language grammar,
negotiation, RFC 4647 lookup and the mirror agreement check.

Written from RFC 9110 §12.5.4 and §5.6.1, RFC 4647 §2.1, §3.3.1 and §3.4,
SEP-2792 and the project's decisions (docs/decisions.md: D1-D5, G1, G2, M1-M10),
for the Python test server (sep2792_server.py). Standard library only.

Run as a script it answers the `mcp-lang match --jsonl` protocol for the ops
`parse`, `negotiate`, `lookup` and `agree` (one JSON request per stdin line,
one JSON answer per stdout line), so the shared test cases under `testdata/`
can hold it to the same answers as the Rust crates.
"""

import json
import sys

OWS = " \t"


class Malformed(ValueError):
    """A value outside the grammar: the byte offset and what was expected there."""

    def __init__(self, offset, expected):
        super().__init__(f"malformed Accept-Language: expected {expected} at byte {offset}")
        self.offset = offset
        self.expected = expected


def _alpha(b):
    return 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A


def _alnum(b):
    return _alpha(b) or 0x30 <= b <= 0x39


def _skip_ows(data, i):
    while i < len(data) and data[i] in (0x20, 0x09):
        i += 1
    return i


def _range(data, i):
    """A language range (RFC 4647 §2.1) at `i`: returns its end."""
    if i < len(data) and data[i] == 0x2A:  # "*"
        return i + 1
    if i >= len(data) or not _alpha(data[i]):
        raise Malformed(i, "language range")
    start = i
    while i < len(data) and _alpha(data[i]) and i - start < 8:
        i += 1
    if i < len(data) and _alnum(data[i]):
        raise Malformed(i, "end of subtag")
    while i < len(data) and data[i] == 0x2D:  # "-"
        i += 1
        start = i
        while i < len(data) and _alnum(data[i]) and i - start < 8:
            i += 1
        if i == start:
            raise Malformed(i, "subtag")
        if i < len(data) and _alnum(data[i]):
            raise Malformed(i, "end of subtag")
    return i


def _qvalue(data, i):
    """A qvalue (RFC 9110 §12.4.2) at `i`: returns (end, thousandths)."""
    if i >= len(data) or data[i] not in (0x30, 0x31):
        raise Malformed(i, "qvalue")
    one = data[i] == 0x31
    i += 1
    if i < len(data) and 0x30 <= data[i] <= 0x39:
        raise Malformed(i, "qvalue")
    if i >= len(data) or data[i] != 0x2E:  # "."
        return i, 1000 if one else 0
    i += 1
    digits = ""
    while i < len(data) and 0x30 <= data[i] <= 0x39:
        if len(digits) == 3 or (one and data[i] != 0x30):
            raise Malformed(i, "qvalue")
        digits += chr(data[i])
        i += 1
    return i, 1000 if one else int((digits + "000")[:3])


def parse(value):
    """Parses an Accept-Language field value strictly (D2, G1, G2).

    Returns the ranges as [(range, q in thousandths)], empty for a value with
    no elements; raises Malformed otherwise. Only the bytes of `value` (a str)
    are read, so anything outside printable ASCII fails at its offset.
    """
    data = value.encode("utf-8")
    ranges = []
    i = 0
    after_comma = False  # at the start, OWS must lead to a comma
    while True:
        j = _skip_ows(data, i)
        if j == len(data):
            if j > i and not after_comma:
                raise Malformed(j, "','")
            return ranges
        if data[j] == 0x2C:  # an empty list element
            i, after_comma = j + 1, True
            continue
        if j > i and not after_comma:
            raise Malformed(j, "','")
        start = j
        i = _range(data, j)
        text = data[start:i].decode("ascii")
        quality = 1000
        j = _skip_ows(data, i)
        if j < len(data) and data[j] == 0x3B:  # ";"
            j = _skip_ows(data, j + 1)
            for k, expected in enumerate((b"qQ", b"=")):
                if j + k >= len(data) or data[j + k] not in expected:
                    raise Malformed(j + k, "'q='")
            i, quality = _qvalue(data, j + 2)
            j = _skip_ows(data, i)
            if j == len(data):
                if j > i:
                    raise Malformed(j, "','")
            elif data[j] != 0x2C:
                raise Malformed(j, "','")
        elif j == len(data):
            if j > i:
                raise Malformed(j, "';' or ','")
        elif data[j] != 0x2C:
            raise Malformed(j, "';' or ','")
        ranges.append((text, quality))
        if j == len(data):
            return ranges
        i, after_comma = j + 1, True


def _subtags(tag):
    return tag.lower().split("-")


def _filters(range_, tag):
    """RFC 4647 §3.3.1 basic filtering: `range_` (not `*`) matches `tag`."""
    r, t = range_.lower(), tag.lower()
    return t == r or t.startswith(r + "-")


def _common(range_, tag):
    """How many leading subtags `range_` and `tag` share."""
    n = 0
    for a, b in zip(_subtags(range_), _subtags(tag)):
        if a != b:
            break
        n += 1
    return n


def _truncation_closeness(tag, common):
    """How close RFC 4647 §3.4 truncation of a range sharing `common` leading
    subtags with `tag` (and not a prefix of it) comes: None when it reaches none
    of them (every prefix it could stop at ends in a singleton, M8); else 2k+1
    when the longest prefix reached (k subtags) equals the tag, 2k when it only
    basic-filters it (M6: at equal length the tag equal to the prefix wins)."""
    subtags = _subtags(tag)
    k = common
    while k > 0 and len(subtags[k - 1]) == 1:
        k -= 1
    if k == 0:
        return None
    return 2 * k + (1 if len(subtags) == k else 0)


def _script_beyond(tag, k):
    """Whether `tag` has a script subtag (four letters, after the primary
    subtag and before any singleton) at a subtag index of `k` or more."""
    for i, subtag in enumerate(_subtags(tag)[1:], start=1):
        if len(subtag) == 1:
            return False
        if i >= k and len(subtag) == 4 and subtag.isascii() and subtag.isalpha():
            return True
    return False


def _crosses_script(range_, tag, closeness):
    """Whether a truncation match crosses an explicit script subtag (D4): it
    stopped at a prefix of closeness // 2 subtags and reached a tag extending
    the prefix (an even closeness) rather than equal to it, while the range had
    a script subtag the truncation dropped or the tag has one beyond the prefix.
    `zh-Hans` reaches `zh` but never `zh-Hant`; `pt-PT` still reaches `pt-BR`."""
    k = closeness // 2
    return closeness % 2 == 0 and (_script_beyond(range_, k) or _script_beyond(tag, k))


EXACT, MORE_SPECIFIC, WILDCARD = 1 << 30, (1 << 30) - 1, 0


def _explicit(ranges, tag):
    """The D3 decider of `tag`: the longest non-wildcard range that
    basic-filters it; at equal length q=0, then the higher q, then the
    earlier. Returns (range, q, position) or None."""
    best = None
    for position, (range_, q) in enumerate(ranges):
        if range_ == "*" or not _filters(range_, tag):
            continue
        if best is None:
            best = (range_, q, position)
            continue
        b_range, b_q, _ = best
        if len(range_) != len(b_range):
            better = len(range_) > len(b_range)
        elif (q == 0) != (b_q == 0):
            better = q == 0
        else:
            better = q > b_q
        if better:
            best = (range_, q, position)
    return best


def _wildcard(ranges):
    """The deciding `*`: q=0 first, then the higher q, then the earlier."""
    best = None
    for position, (range_, q) in enumerate(ranges):
        if range_ != "*":
            continue
        if best is None or ((q == 0) != (best[0] == 0) and q == 0) or (
            (q == 0) == (best[0] == 0) and q > best[0]
        ):
            best = (q, position)
    return best


def _score(ranges, tag, wildcard):
    """D4's score of one supported tag: (q, position, closeness) or None."""
    explicit = _explicit(ranges, tag)
    if explicit is not None:
        range_, q, position = explicit
        return q, position, EXACT if len(range_) == len(tag) else MORE_SPECIFIC
    truncated = None
    for position, (range_, q) in enumerate(ranges):
        if range_ == "*" or q == 0:  # M1: q=0 only excludes
            continue
        if truncated is not None and q <= truncated[0]:
            continue
        closeness = _truncation_closeness(tag, _common(range_, tag))
        if closeness is not None and not _crosses_script(range_, tag, closeness):
            truncated = (q, position, closeness)
    if truncated is not None:
        return truncated
    if wildcard is not None:
        return wildcard[0], wildcard[1], WILDCARD
    return None


REASONS = {EXACT: "exact", MORE_SPECIFIC: "more-specific", WILDCARD: "wildcard"}


def negotiate(value, supported, default):
    """Picks one supported tag for a preference (decision D4).

    `value` is the raw `acceptLanguage` (None when absent; a non-string counts
    as malformed). Returns (tag, q, reason) with reason one of exact,
    more-specific, truncated, wildcard, default (nothing acceptable), absent
    or malformed (the default, with q 1000). Never fails.
    """
    default_index = next((i for i, t in enumerate(supported) if t.lower() == default.lower()), None)
    fallback = supported[default_index] if default_index is not None else default
    if value is None:
        return fallback, 1000, "absent"
    if not isinstance(value, str):
        return fallback, 1000, "malformed"
    try:
        # Every range counts, however many (M10).
        ranges = parse(value)
    except Malformed:
        return fallback, 1000, "malformed"
    if not ranges:
        return fallback, 1000, "absent"
    wildcard = _wildcard(ranges)
    best = None
    for index, tag in enumerate(supported):
        score = _score(ranges, tag, wildcard)
        if score is None or score[0] == 0:
            continue
        key = (-score[0], score[1], -score[2], index != default_index, index)
        if best is None or key < best[0]:
            best = (key, index, score)
    if best is None:
        return fallback, 0, "default"
    _, index, (q, _, closeness) = best
    return supported[index], q, REASONS.get(closeness, "truncated")


def _truncate(subtags):
    """One RFC 4647 §3.4 step: drop the last subtag, then a singleton left last."""
    subtags = subtags[:-1]
    if subtags and len(subtags[-1]) == 1:
        subtags = subtags[:-1]
    return subtags


def lookup(value, tags, default):
    """RFC 4647 §3.4 lookup over `tags` (M2): ranges by q, highest first, each
    truncated until a prefix equals a tag that no q=0 range excludes under D3;
    `*` is skipped. Returns that tag as spelled in `tags`, else `default`.
    Raises Malformed for a malformed value."""
    ranges = parse(value)
    ordered = sorted((r for r in ranges if r[0] != "*" and r[1] > 0), key=lambda r: -r[1])
    for range_, _ in ordered:
        subtags = _subtags(range_)
        while subtags:
            prefix = "-".join(subtags)
            for tag in tags:
                if tag.lower() == prefix:
                    decider = _explicit(ranges, tag)
                    if decider is None or decider[1] > 0:
                        return tag
            subtags = _truncate(subtags)
    return default


def joined_field(lines):
    """The field value of repeated field lines: each trimmed of SP and HTAB
    (RFC 9110 §5.5), joined with ", " in received order (§5.3). Bytes in,
    bytes out."""
    return b", ".join(line.strip(b" \t") for line in lines)


ABSENT = object()
"""`agree`'s `meta` when the request has no `acceptLanguage` at all."""


def agree(meta, lines):
    """Decision D5: header-absent (no field line), bare-header (lines but no
    `_meta` value), agree or mismatch. `lines` are the raw field line values
    (bytes); `meta` is the decoded `_meta` value, untouched, or ABSENT.
    A non-string `meta` never agrees with a present header."""
    if not lines:
        return "header-absent"
    if meta is ABSENT:
        return "bare-header"
    if not isinstance(meta, str):
        return "mismatch"
    return "agree" if meta.encode("utf-8") == joined_field(lines) else "mismatch"


def _answer(request):
    """One line of the `mcp-lang match --jsonl` protocol."""
    op = request.get("op")
    if op == "parse":
        try:
            return {"valid": True, "ranges": [[r, q] for r, q in parse(request["header"])]}
        except Malformed as e:
            return {"valid": False, "offset": e.offset, "expected": e.expected}
    if op == "negotiate":
        tag, q, reason = negotiate(request["header"], request["supported"], request["default"])
        return {"selected": tag, "q": q, "reason": reason}
    if op == "lookup":
        try:
            return {"tag": lookup(request["header"], request["tags"], request["default"])}
        except Malformed as e:
            return {"error": f"malformed Accept-Language: expected {e.expected}", "offset": e.offset}
    if op == "agree":
        meta = request["meta"]
        lines = [line.encode("utf-8") for line in request["lines"]]
        return {"agreement": agree(ABSENT if meta is None else meta, lines)}
    return {"error": f"unknown op {op!r}"}


def main():
    for line in sys.stdin:
        try:
            answer = _answer(json.loads(line))
        except (ValueError, KeyError, TypeError) as e:
            answer = {"error": str(e)}
        print(json.dumps(answer, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
