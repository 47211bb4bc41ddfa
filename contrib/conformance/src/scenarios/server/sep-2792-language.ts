/**
 * Per-request user language preference (SEP-2792) test scenario for MCP servers.
 *
 * Sends `params._meta["io.modelcontextprotocol/acceptLanguage"]` (mirrored in
 * `Accept-Language`) on `tools/list` and on the fixture tools of its
 * contract, and checks the language the server selects and reports, the
 * request scope of the preference, the localized titles, errors and explicit
 * language argument with stable identifiers, the Streamable HTTP binding (the
 * `Content-Language` and `Vary` response headers and exact agreement between
 * `Accept-Language` and the `_meta` value) and caching across preferences.
 *
 * Requests go through `node:http` rather than fetch: the binding's edge cases
 * need a header sent as two field lines, a header value with surrounding
 * whitespace, and the response's raw field lines, none of which fetch exposes.
 */

import http from 'node:http';
import https from 'node:https';
import {
  ClientScenario,
  ConformanceCheck,
  DATED_SPEC_VERSIONS,
  DRAFT_PROTOCOL_VERSION,
  type SpecReference,
  type SpecVersion
} from '../../types';
import {
  buildStandardHeaders,
  withRequestMeta,
  type JsonRpcResponse,
  type RunContext
} from '../../connection';
import { untestableCheck } from '../untestable';

const SPEC_REFS: SpecReference[] = [
  {
    id: 'SEP-2792',
    url: 'https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2792'
  }
];
const RFC_4647: SpecReference = {
  id: 'RFC-4647',
  url: 'https://www.rfc-editor.org/rfc/rfc4647'
};
const RFC_9110_ACCEPT_LANGUAGE: SpecReference = {
  id: 'RFC-9110-12.5.4',
  url: 'https://www.rfc-editor.org/rfc/rfc9110.html#section-12.5.4'
};
const RFC_9110_CONTENT_LANGUAGE: SpecReference = {
  id: 'RFC-9110-8.5',
  url: 'https://www.rfc-editor.org/rfc/rfc9110.html#section-8.5'
};
const RFC_9110_FIELD_VALUES: SpecReference = {
  id: 'RFC-9110-5.5',
  url: 'https://www.rfc-editor.org/rfc/rfc9110.html#section-5.5'
};
const RFC_9110_VARY: SpecReference = {
  id: 'RFC-9110-12.5.5',
  url: 'https://www.rfc-editor.org/rfc/rfc9110.html#section-12.5.5'
};

const ACCEPT_LANGUAGE = 'io.modelcontextprotocol/acceptLanguage';
const CONTENT_LANGUAGE = 'io.modelcontextprotocol/contentLanguage';
const HEADER_MISMATCH = -32020;
/** The key of an elicitation sent as a request on the call's stream (before the draft). */
const STREAMED_ELICITATION = '(streamed request)';

/** What one raw request returned. */
interface Exchange {
  status: number;
  /** Response field lines, names lower-cased, in received order. */
  lines: Array<[string, string]>;
  /** The response to the request. */
  body?: JsonRpcResponse;
  /** Every JSON-RPC message of an event stream (the response too), in order; empty for JSON. */
  messages: Array<Record<string, unknown>>;
  /** Transport failure or unparseable body. */
  problem?: string;
}

interface Tool {
  name: string;
  title?: string;
  inputSchema?: { properties?: Record<string, unknown> };
}

/** How a probe sends the preference. */
interface Preference {
  /** The `_meta` value; `undefined` omits the key. */
  meta?: string;
  /**
   * The `Accept-Language` field lines, sent verbatim; `undefined` mirrors
   * `meta` (a conformant client), `[]` sends none.
   */
  header?: string[];
  /**
   * Send the request on a connection of its own, as its first request: a
   * server (or a proxy in front of it) that reads its own bytes may look only
   * at the first request of a connection.
   */
  fresh?: boolean;
}

/**
 * Malformed `acceptLanguage` values (RFC 9110 §12.5.4 with the list rule
 * of §5.6.1, the weight of §12.4.2 and RFC 4647 §2.1 basic ranges), each
 * naming `fr`, a supported language other than the default: a server that
 * repairs the value in any way (drops the bad element, trims a character
 * that is not OWS, reads a number loosely, takes a space or `;` for a
 * comma) answers in `fr`; one that ignores it as absent, as the SEP
 * requires, answers as without a preference.
 */
const MALFORMED_VECTORS: Array<[string, string]> = [
  ['leading-space-malformed', ' fr'],
  ['trailing-space-malformed', 'fr '],
  ['space-instead-of-comma', 'fr fr'],
  ['semicolon-separator', 'fr;fr'],
  ['newline-is-not-ows', 'fr,\nfr'],
  ['crlf-after-range', 'fr\r\n'],
  ['nul-byte', 'fr\u0000'],
  ['vertical-tab-not-ows', 'fr\u000b,fr'],
  ['nbsp-not-ows', 'fr,\u00a0fr'],
  ['non-ascii-range', 'fr,\u00e9'],
  ['non-ascii-inside-range', 'fr\u00e9'],
  ['range-empty-subtag', 'fr--US'],
  ['range-trailing-hyphen', 'fr-'],
  ['range-later-subtag-nine', 'fr-123456789'],
  ['range-underscore', 'fr_US'],
  ['extended-range-not-basic', 'fr-*-DE'],
  ['other-parameter', 'fr;level=1'],
  ['parameter-after-weight', 'fr;q=0.5;x=y'],
  ['second-weight', 'fr;q=0.5;q=0.4'],
  ['missing-q', 'fr;'],
  ['q-without-equals', 'fr;q'],
  ['q-space-equals', 'fr;q =0.5'],
  ['missing-qvalue', 'fr;q='],
  ['space-after-equals', 'fr;q= 0.5'],
  ['weight-then-space-end', 'fr;q=0.5 '],
  ['qvalue-bad-0dot1234', 'fr;q=0.1234'],
  ['qvalue-bad-1dot001', 'fr;q=1.001'],
  ['qvalue-bad-1dot1', 'fr;q=1.1'],
  ['qvalue-bad-1dot0001', 'fr;q=1.0001'],
  ['qvalue-bad-0dot0000', 'fr;q=0.0000'],
  ['qvalue-bad-2', 'fr;q=2'],
  ['qvalue-bad-9', 'fr;q=9'],
  ['qvalue-bad-dot5', 'fr;q=.5'],
  ['qvalue-bad-minus0', 'fr;q=-0'],
  ['qvalue-bad-plus1', 'fr;q=+1'],
  ['qvalue-bad-1eminus1', 'fr;q=1e-1'],
  ['qvalue-bad-1E0', 'fr;q=1E0'],
  ['qvalue-bad-NaN', 'fr;q=NaN'],
  ['qvalue-bad-inf', 'fr;q=inf'],
  ['qvalue-bad-00', 'fr;q=00'],
  ['qvalue-bad-01', 'fr;q=01'],
  ['qvalue-bad-10', 'fr;q=10'],
  ['qvalue-bad-0comma5', 'fr;q=0,5'],
  ['qvalue-bad-0dot5dot', 'fr;q=0.5.'],
  ['qvalue-bad-1dot0dot0', 'fr;q=1.0.0'],
  ['qvalue-bad-0x1', 'fr;q=0x1'],
  ['qvalue-bad-\u00bd', 'fr;q=\u00bd'],
  ['qvalue-four-decimals-rejected', 'fr;q=1.0000'],
  ['qvalue-0-0001-rejected', 'fr;q=0.0001'],
  ['qvalue-1-010-rejected', 'fr;q=1.010'],
  ['weight-twice-rejected', 'fr;q=0.5;q=0.3'],
  ['weight-trailing-semicolon-rejected', 'fr;q=0.5;'],
  ['field-value-vertical-tab-rejected', 'fr\u000b'],
  ['range-extended-wildcard-rejected', 'fr-*']
];
/**
 * Well-formed values at the edges of the same grammar (empty list elements,
 * OWS of spaces and tabs, `Q=`, every qvalue spelling of 0*3 digits), with
 * the language each selects: `fr`, or the default `en` for a list with no
 * ranges. A server that takes one for malformed answers in the default.
 */
const WELL_FORMED_VECTORS: Array<[string, string, string]> = [
  ['sep-example', 'fr-CA,fr;q=0.9,fr;q=0.5', 'fr'],
  ['rfc9110-example', 'fr, fr-gb;q=0.8, fr;q=0.7', 'fr'],
  ['single-range', 'fr', 'fr'],
  ['wildcard-weighted-first', '*;q=0.5, fr', 'fr'],
  ['duplicates-kept', 'fr, fr;q=0.5, fr', 'fr'],
  ['browser-like', 'fr-US,fr;q=0.9,fr-FR;q=0.8,fr;q=0.7,fr;q=0.6', 'fr'],
  ['empty-value-no-preference', '', 'en'],
  ['only-comma', ',', 'en'],
  ['only-commas-and-ows', ' , \t,, ', 'en'],
  ['leading-empty-element', ',fr', 'fr'],
  ['leading-ows-comma', ' ,fr', 'fr'],
  ['trailing-empty-element', 'fr,', 'fr'],
  ['trailing-comma-ows', 'fr, ', 'fr'],
  ['inner-empty-elements', 'fr,,, ,fr', 'fr'],
  ['ows-around-comma', 'fr \t, \tfr', 'fr'],
  ['ows-around-semicolon', 'fr \t; \tq=0.5', 'fr'],
  ['uppercase-q', 'fr;Q=0.3', 'fr'],
  ['qvalue-ok-0dot5', 'fr;q=0.5', 'fr'],
  ['qvalue-ok-0dot50', 'fr;q=0.50', 'fr'],
  ['qvalue-ok-0dot500', 'fr;q=0.500', 'fr'],
  ['qvalue-ok-0dot05', 'fr;q=0.05', 'fr'],
  ['qvalue-ok-0dot005', 'fr;q=0.005', 'fr'],
  ['qvalue-ok-0dot001', 'fr;q=0.001', 'fr'],
  ['qvalue-ok-0dot999', 'fr;q=0.999', 'fr'],
  ['qvalue-ok-0dot123', 'fr;q=0.123', 'fr'],
  ['qvalue-ok-1', 'fr;q=1', 'fr'],
  ['qvalue-ok-1dot', 'fr;q=1.', 'fr'],
  ['qvalue-ok-1dot0', 'fr;q=1.0', 'fr'],
  ['qvalue-ok-1dot00', 'fr;q=1.00', 'fr'],
  ['qvalue-ok-1dot000', 'fr;q=1.000', 'fr'],
  ['weight-ows-around-semicolon', 'fr ; q=0.5', 'fr'],
  ['weight-htab-around-semicolon', 'fr\t;\tq=0.5', 'fr'],
  ['weight-capital-q', 'fr;Q=0.5', 'fr'],
  ['list-ows-before-comma', 'fr;q=0.5 , fr', 'fr'],
  ['list-htab-around-comma', 'fr;q=0.5\t,\tfr', 'fr'],
  ['list-empty-elements-with-ows', 'fr, ,fr', 'fr'],
  ['list-empty-element-with-htab', 'fr,\t,fr', 'fr'],
  ['list-trailing-comma', 'fr;q=0.5,', 'fr'],
  ['list-only-commas', ',,,', 'en']
];

/**
 * Whether a value can be sent as an `Accept-Language` field value: printable
 * ASCII or HTAB, no whitespace around it. Other values go without the header.
 */
function sendable(value: string): boolean {
  return (
    /^[\t\x20-\x7e]*$/.test(value) &&
    !/^[ \t]/.test(value) &&
    !/[ \t]$/.test(value)
  );
}

/** One `Content-Language` tag of RFC 9110 §8.5 (a BCP 47 language tag, simplified to its shape). */
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

function contentLanguageIsValid(value: string): boolean {
  const tags = value.split(',').map((t) => t.trim());
  return tags.length > 0 && tags.every((t) => LANGUAGE_TAG.test(t));
}

/** True when `tag` is `range` or starts with `range-` (RFC 4647 §3.3.1 basic filtering), ignoring case. */
function tagMatches(tag: string | undefined, range: string): boolean {
  if (tag === undefined) return false;
  const t = tag.toLowerCase();
  const r = range.toLowerCase();
  return t === r || t.startsWith(r + '-');
}

/** True when one of the tags of a Content-Language value (RFC 9110 §8.5: one or more) matches `range`. */
function includesLanguage(value: string | undefined, range: string): boolean {
  return (value ?? '').split(',').some((tag) => tagMatches(tag.trim(), range));
}

function fieldValues(ex: Exchange, name: string): string[] {
  return ex.lines.filter(([n]) => n === name).map(([, v]) => v);
}

function reported(ex: Exchange): string | undefined {
  const meta = ex.body?.result?._meta as Record<string, unknown> | undefined;
  const value = meta?.[CONTENT_LANGUAGE];
  return typeof value === 'string' ? value : undefined;
}

function toolsOf(ex: Exchange): Tool[] | undefined {
  const tools = ex.body?.result?.tools;
  return Array.isArray(tools) ? (tools as Tool[]) : undefined;
}

/** The `contentLanguage` in a `_meta` object, when it is a string. */
function metaLanguage(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const value = (meta as Record<string, unknown>)[CONTENT_LANGUAGE];
  return typeof value === 'string' ? value : undefined;
}

/** The `contentLanguage` a JSON-RPC message carries: a result's, a notification's or request's, an error's. */
function messageLanguage(message: Record<string, unknown>): string | undefined {
  const result = message.result as Record<string, unknown> | undefined;
  const params = message.params as Record<string, unknown> | undefined;
  const error = message.error as Record<string, unknown> | undefined;
  const data = error?.data as Record<string, unknown> | undefined;
  return (
    metaLanguage(result?._meta) ??
    metaLanguage(params?._meta) ??
    metaLanguage(data?._meta)
  );
}

/** JSON text of `value` with every object's keys sorted: equal for equal values. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0
          )
        )
      : v
  );
}

function isEventStream(ex: Exchange): boolean {
  return fieldValues(ex, 'content-type')
    .join(', ')
    .includes('text/event-stream');
}

/** `Cache-Control: private` or `no-store`: no shared cache stores the response. */
function isPrivate(ex: Exchange): boolean {
  return fieldValues(ex, 'cache-control').some((line) =>
    line.split(',').some((directive) => {
      const name = directive.split('=')[0].trim().toLowerCase();
      return name === 'private' || name === 'no-store';
    })
  );
}

/** A `Vary` member `Accept-Language` (any case) or `*`. */
function variesByLanguage(ex: Exchange): boolean {
  return fieldValues(ex, 'vary')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .some((v) => v === 'accept-language' || v === '*');
}

function describe(ex: Exchange): string {
  if (ex.problem) return ex.problem;
  if (ex.body?.error) {
    return `HTTP ${ex.status}, JSON-RPC error ${ex.body.error.code}: ${ex.body.error.message}`;
  }
  return `HTTP ${ex.status}`;
}

/**
 * Long preferences whose last range, `fr`, is the only supported language
 * rated highest: 100 ranges, 300 ranges, and as many as fit in 4 KiB after a
 * low-weighted `de` that a server reading only the first ranges would pick.
 * The other ranges are `xx…` languages, which the fixture contract excludes.
 */
function longLists(): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const unsupported = (n: number, weight: string): string[] =>
    Array.from(
      { length: n },
      (_, i) =>
        `xx${letters[Math.floor(i / 26) % 26]}${letters[i % 26]}${weight}`
    );
  const cases = [
    `${unsupported(100, '').join(', ')}, fr`,
    `${unsupported(300, ';q=0.9').join(', ')}, fr`
  ];
  const head = 'de;q=0.1, ';
  const tail = ', fr';
  let body = '';
  for (const range of unsupported(676, ';q=0.5')) {
    const next = body === '' ? range : `${body}, ${range}`;
    if (head.length + next.length + tail.length > 4096) break;
    body = next;
  }
  cases.push(`${head}${body}${tail}`);
  return cases;
}

/** A preference for a message: quoted, cut after 60 characters with its length when longer. */
function shown(value: string): string {
  return value.length <= 60
    ? JSON.stringify(value)
    : `${JSON.stringify(value.slice(0, 60))}… (${value.length} bytes)`;
}

function quote(value: string | undefined): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

export class Sep2792LanguageScenario implements ClientScenario {
  name = 'sep-2792-language';
  readonly source = { introducedIn: DRAFT_PROTOCOL_VERSION } as const;
  description = `Test per-request user language preference (SEP-2792): matching, request scope, localized discovery and the Streamable HTTP binding.

**Server Implementation Requirements (fixture contract):**

- The server honors \`_meta["io.modelcontextprotocol/acceptLanguage"]\` on \`tools/list\` and supports at least the languages \`en\` (its default), \`fr\` and \`de\`. It may support more (for example \`fr-CA\`); it must not support a language tag starting with \`xx\`.
- \`tools/list\` lists at least one tool with a \`title\`, and that title differs between \`en\`, \`fr\` and \`de\`.
- Every \`tools/list\` answer to a request that carries a preference reports the language used in \`result._meta["io.modelcontextprotocol/contentLanguage"]\`.
- A tool \`test_localized_error\` answers every \`tools/call\` with a JSON-RPC error. Its \`message\` may be in the request's selected language (the SEP's MAY); when it is, the error's checks below apply to its localized form.
- A tool \`test_explicit_language\` takes a \`language\` argument (one of \`en\`, \`fr\`, \`de\`) naming the language of the content it returns.
- A tool \`test_localized_elicitation\` (no arguments) answers \`tools/call\` without \`inputResponses\` with an \`input_required\` result whose \`inputRequests\` hold an \`elicitation/create\` request: its \`message\` and the \`title\` or \`description\` of each property of its \`requestedSchema\` in the request's selected language.
- A tool \`test_localized_progress\` (no arguments), called with a \`progressToken\` in \`_meta\`, sends \`notifications/progress\` for that token with a \`message\` in the request's selected language before its result.

**Checked (MUST unless noted):**

- Matching compatible with RFC 9110 §12.5.4 and RFC 4647: supported selection, weights (each of three decimals), \`q=0\` exclusion (of a region only, of every language when nothing else is named), the default weighed like any supported language, regions the server lacks, lists of hundreds of ranges (up to 4 KiB; the other ranges name \`xx…\` languages), case-insensitive ranges and the wildcard (never reaching a language another range names). Both readings of \`*\` the SEP allows are accepted (RFC 4647 lookup, which skips \`*\`, and filtering / RFC 9110, where \`*\` matches every tag no other range names).
- Default fallback, without an error, for an unmatched preference; a malformed value treated as absent, without an error, for each of 57 malformed values (a value that cannot be a field value goes without \`Accept-Language\`, and only when the server tolerates that); each of 39 well-formed values at the grammar's edges read as RFC 9110 reads it.
- Request scope: on consecutive requests over one connection, a changed or omitted preference is never served with an earlier one.
- Localized \`tools/list\` titles (SHOULD) with stable tool names and schema property keys, and a reported, well-formed \`contentLanguage\`.
- The error of \`test_localized_error\`: \`error.code\` the same in every language; when its message is translated, \`error.data\` an object whose \`_meta\` reports the language; when it is not, any language it reports is the default's.
- \`serverInfo.name\` of \`server/discover\` the same in every language; the preference of a \`server/discover\` not kept for a later request without one; the retry of the elicitation's \`input_required\` result (declining it) answered for its own preference, not the first call's.
- Tool results: the keys of \`structuredContent\` the same in every language, for each fixture tool that returns one; \`test_simple_prompt\`, when the server has it, not labelled with a language its untranslated messages are not in.
- A server that does not speak the runner's protocol version (a server on a 1.x SDK, which answers the draft with the versions it supports) is checked in the newest dated version it names, after the \`initialize\` handshake and in its session; an elicitation it sends on a call's stream is declined, and one it cannot send for want of a session is reported as INFO.
- The explicit \`language\` argument of \`test_explicit_language\` taking precedence over the preference (SHOULD); the result reports the language of its content.
- The elicitation's message, property titles and descriptions translated (SHOULD), its request key, mode and schema (property keys, types, formats, \`required\`) the same in every language, the language reported in \`result._meta\` when the text is translated.
- Progress messages translated (SHOULD), each translated notification reporting its language in \`params._meta\`, every notification carrying the client's \`progressToken\` untouched.
- Streamable HTTP: \`Content-Language\` on one field line equal to \`contentLanguage\`; \`Vary: Accept-Language\`; a missing \`Accept-Language\` tolerated (MAY; reported as INFO when declined), and a request served without it matched on its \`_meta\` value; HTTP 400 with \`HeaderMismatch\` (-32020) when \`Accept-Language\` and \`_meta\` disagree, including the SEP's exact-agreement edge cases, and no rejection where they agree; the localized error's \`Content-Language\` and \`Vary\`; on every event stream of the run, a \`Content-Language\` (which a stream may omit) that agrees with each message's \`contentLanguage\`.
- Caching: consecutive requests that differ only in the preference each answered for their own; two preferences that select the same language kept apart (\`Vary: Accept-Language\` with the header); a response whose \`Accept-Language\` was stripped private (\`Cache-Control: private\` or \`no-store\`; reported as INFO when a missing header is refused).`;

  async run(ctx: RunContext): Promise<ConformanceCheck[]> {
    const checks: ConformanceCheck[] = [];
    const agent = ctx.serverUrl.startsWith('https:')
      ? new https.Agent({ keepAlive: true, maxSockets: 1 })
      : new http.Agent({ keepAlive: true, maxSockets: 1 });
    let nextId = 1;
    /**
     * The protocol version the requests speak: the runner's, or the newest
     * dated one a server that does not speak it names (SEP-2792 applies to
     * every version that carries `_meta`), with that version's session.
     */
    let version: SpecVersion = ctx.specVersion;
    let sessionId: string | undefined;

    /** Every exchange, by what was sent, for the event-stream check at the end. */
    const exchanges: Array<{ what: string; ex: Exchange; tool?: string }> = [];

    /**
     * One request: `extra` are its params beside `_meta`, `meta` more `_meta`
     * entries (a progress token), `pref` the preference and its header.
     */
    const post = async (
      method: string,
      extra: Record<string, unknown>,
      pref: Preference,
      meta: Record<string, unknown> = {}
    ): Promise<Exchange> => {
      const params: Record<string, unknown> = {
        ...extra,
        ...(pref.meta === undefined && Object.keys(meta).length === 0
          ? {}
          : {
              _meta: {
                ...meta,
                ...(pref.meta === undefined
                  ? {}
                  : { [ACCEPT_LANGUAGE]: pref.meta })
              }
            })
      };
      const ex = await exchange(method, params, pref);
      const name = typeof extra.name === 'string' ? ` ${extra.name}` : '';
      exchanges.push({
        what: `${method}${name} with acceptLanguage ${pref.meta === undefined ? quote(undefined) : shown(pref.meta)}`,
        ex,
        tool:
          method === 'tools/call' && typeof extra.name === 'string'
            ? extra.name
            : undefined
      });
      return ex;
    };

    const exchange = (
      method: string,
      params: Record<string, unknown>,
      pref: Preference
    ): Promise<Exchange> => {
      const headerLines =
        pref.header ?? (pref.meta === undefined ? [] : [pref.meta]);
      const id = nextId++;
      const notification = method.startsWith('notifications/');
      const body = JSON.stringify({
        jsonrpc: '2.0',
        ...(notification ? {} : { id }),
        method,
        params:
          version !== DRAFT_PROTOCOL_VERSION || notification
            ? params
            : withRequestMeta(params, version)
      });
      const headers: Record<string, string | string[]> = {
        ...buildStandardHeaders(method, params, { specVersion: version }),
        ...(sessionId === undefined ? {} : { 'Mcp-Session-Id': sessionId }),
        'Content-Length': String(Buffer.byteLength(body))
      };
      if (headerLines.length > 0) {
        // An array is sent as one field line per element.
        headers['Accept-Language'] =
          headerLines.length === 1 ? headerLines[0] : headerLines;
      }
      const lib = ctx.serverUrl.startsWith('https:') ? https : http;
      return new Promise((resolve) => {
        const req = lib.request(
          ctx.serverUrl,
          {
            method: 'POST',
            headers,
            agent: pref.fresh ? false : agent,
            timeout: 10000
          },
          (res) => {
            const chunks: Buffer[] = [];
            // Before the draft, an elicitation is a request the server sends
            // on the call's stream, which stays open until the client
            // answers: it is declined as it arrives.
            let seen = 0;
            res.on('data', (c: Buffer) => {
              chunks.push(c);
              const events = Buffer.concat(chunks)
                .toString('utf8')
                .split(/\r?\n/)
                .filter(
                  (line) => line.startsWith('data:') && line.slice(5).trim()
                );
              for (const line of events.slice(seen)) {
                seen++;
                try {
                  const event = JSON.parse(line.slice(5).trim());
                  if (
                    event?.method === 'elicitation/create' &&
                    event.id !== undefined
                  ) {
                    void answer(event.id, { action: 'decline' });
                  }
                } catch {
                  seen--; // an event cut across chunks: read again
                  break;
                }
              }
            });
            res.on('end', () => {
              const lines: Array<[string, string]> = [];
              for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
                lines.push([
                  res.rawHeaders[i].toLowerCase(),
                  res.rawHeaders[i + 1]
                ]);
              }
              const text = Buffer.concat(chunks).toString('utf8');
              const status = res.statusCode ?? 0;
              const contentType = res.headers['content-type'] ?? '';
              try {
                let parsed: JsonRpcResponse | undefined;
                const messages: Array<Record<string, unknown>> = [];
                if (contentType.includes('text/event-stream')) {
                  for (const line of text.split(/\r?\n/)) {
                    // An event without data (a priming event) carries no message.
                    if (!line.startsWith('data:') || !line.slice(5).trim())
                      continue;
                    const event = JSON.parse(line.slice(5).trim());
                    if (event && typeof event === 'object') {
                      messages.push(event);
                      if (event.id === id) parsed = event;
                    }
                  }
                } else if (text) {
                  parsed = JSON.parse(text);
                }
                resolve({ status, lines, body: parsed, messages });
              } catch {
                resolve({
                  status,
                  lines,
                  messages: [],
                  problem: `HTTP ${status}: unparseable body (content-type ${contentType || '(none)'})`
                });
              }
            });
          }
        );
        req.on('timeout', () => req.destroy(new Error('timed out after 10s')));
        req.on('error', (e) =>
          resolve({
            status: 0,
            lines: [],
            messages: [],
            problem: `request failed: ${e.message}`
          })
        );
        req.end(body);
      });
    };

    /** Answers a request the server sent, as a response POSTed back. */
    const answer = (id: unknown, result: Record<string, unknown>) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id, result });
      const lib = ctx.serverUrl.startsWith('https:') ? https : http;
      return new Promise<void>((resolve) => {
        const req = lib.request(
          ctx.serverUrl,
          {
            method: 'POST',
            agent: false,
            timeout: 10000,
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              'MCP-Protocol-Version': version,
              ...(sessionId === undefined
                ? {}
                : { 'Mcp-Session-Id': sessionId }),
              'Content-Length': String(Buffer.byteLength(body))
            }
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve());
          }
        );
        req.on('timeout', () => req.destroy());
        req.on('error', () => resolve());
        req.end(body);
      });
    };

    /** `tools/list` with the preference. */
    const send = (pref: Preference): Promise<Exchange> =>
      post('tools/list', {}, pref);

    const push = (
      id: string,
      name: string,
      description: string,
      ok: boolean,
      error: string,
      refs: SpecReference[],
      details: Record<string, unknown>,
      severity: 'FAILURE' | 'WARNING' = 'FAILURE'
    ): void => {
      checks.push({
        id,
        name,
        description,
        status: ok ? 'SUCCESS' : severity,
        timestamp: new Date().toISOString(),
        errorMessage: ok ? undefined : error,
        specReferences: [...SPEC_REFS, ...refs],
        details
      });
    };

    /** A probe that could not be answered with a tools/list result: the check is not testable. */
    const answered = (
      ex: Exchange,
      id: string,
      name: string,
      description: string,
      refs: SpecReference[],
      severity: 'FAILURE' | 'WARNING' = 'FAILURE'
    ): boolean => {
      if (toolsOf(ex) !== undefined) return true;
      checks.push(
        untestableCheck(
          id,
          name,
          description,
          `tools/list did not return a list of tools (${describe(ex)})`,
          [...SPEC_REFS, ...refs],
          severity
        )
      );
      return false;
    };

    /** The reported contentLanguage; without one the language used cannot be seen and the check is not testable. */
    const selected = (
      ex: Exchange,
      id: string,
      name: string,
      description: string,
      refs: SpecReference[]
    ): string | undefined => {
      const got = reported(ex);
      if (got === undefined) {
        checks.push(
          untestableCheck(
            id,
            name,
            description,
            `the answer reported no result._meta["${CONTENT_LANGUAGE}"], so the language used cannot be seen`,
            [...SPEC_REFS, ...refs]
          )
        );
      }
      return got;
    };

    // A server that does not speak the runner's version (every server on a
    // 1.x SDK, under the draft) answers with the versions it does: the
    // scenario then speaks the newest of them, after its handshake.
    {
      const probe = await exchange('tools/list', {}, {});
      const error = probe.body?.error as
        | { message?: unknown; data?: { supported?: unknown } }
        | undefined;
      const named = Array.isArray(error?.data?.supported)
        ? (error.data.supported as unknown[]).map(String)
        : typeof error?.message === 'string'
          ? (/supported versions?:?\s*([^)]*)/i.exec(error.message)?.[1] ?? '')
              .split(',')
              .map((v) => v.trim())
          : [];
      const older = [...DATED_SPEC_VERSIONS]
        .reverse()
        .find((v) => named.includes(v));
      if (toolsOf(probe) === undefined && older !== undefined) {
        version = older;
        const init = await exchange(
          'initialize',
          {
            protocolVersion: older,
            capabilities: { elicitation: {} },
            clientInfo: { name: 'sep-2792-conformance', version: '1.0.0' }
          },
          {}
        );
        sessionId = fieldValues(init, 'mcp-session-id')[0];
        await exchange('notifications/initialized', {}, {});
      }
    }

    // Baselines: the default (no preference) and the three contract languages.
    const none = await send({});
    const en = await send({ meta: 'en' });
    const fr = await send({ meta: 'fr' });
    const de = await send({ meta: 'de' });

    // ---- Supported selection and reporting ----
    for (const [ex, lang] of [
      [en, 'en'],
      [fr, 'fr'],
      [de, 'de']
    ] as const) {
      const description = `acceptLanguage "${lang}" selects a "${lang}" language tag and reports it`;
      if (
        !answered(
          ex,
          'sep-2792-matching',
          `SupportedSelection_${lang}`,
          description,
          [RFC_4647]
        )
      )
        continue;
      const got = reported(ex);
      push(
        'sep-2792-content-language-reported',
        `ContentLanguageReported_${lang}`,
        `tools/list with acceptLanguage "${lang}" reports contentLanguage`,
        got !== undefined,
        `tools/list with acceptLanguage "${lang}" carried no string result._meta["${CONTENT_LANGUAGE}"]`,
        [],
        { acceptLanguage: lang, contentLanguage: got }
      );
      if (got === undefined) {
        selected(
          ex,
          'sep-2792-matching',
          `SupportedSelection_${lang}`,
          description,
          [RFC_4647]
        );
        continue;
      }
      push(
        'sep-2792-content-language-syntax',
        `ContentLanguageSyntax_${lang}`,
        'contentLanguage is one or more BCP 47 language tags (Content-Language syntax)',
        contentLanguageIsValid(got),
        `contentLanguage ${quote(got)} is not a comma-separated list of language tags`,
        [RFC_9110_CONTENT_LANGUAGE],
        { contentLanguage: got }
      );
      push(
        'sep-2792-matching',
        `SupportedSelection_${lang}`,
        description,
        includesLanguage(got, lang),
        `acceptLanguage "${lang}" (a supported language) was answered in ${quote(got)}`,
        [RFC_4647],
        { acceptLanguage: lang, contentLanguage: got }
      );
    }

    // ---- Localized titles, stable identifiers ----
    const enTools = toolsOf(en);
    const frTools = toolsOf(fr);
    const deTools = toolsOf(de);
    const noneTools = toolsOf(none);
    if (enTools && frTools && deTools && noneTools) {
      const names = (ts: Tool[]) =>
        ts
          .map((t) => t.name)
          .sort()
          .join('\n');
      const keys = (ts: Tool[]) =>
        ts
          .map(
            (t) =>
              `${t.name}:${Object.keys(t.inputSchema?.properties ?? {})
                .sort()
                .join(',')}`
          )
          .sort()
          .join('\n');
      const stable =
        names(enTools) === names(frTools) &&
        names(enTools) === names(deTools) &&
        names(enTools) === names(noneTools) &&
        keys(enTools) === keys(frTools) &&
        keys(enTools) === keys(deTools);
      push(
        'sep-2792-identifiers-stable',
        'ToolIdentifiersStable',
        'Tool names and input schema property keys are the same in every language',
        stable,
        'tools/list answered with different tool names or schema property keys in en, fr, de or without a preference',
        [],
        {
          en: enTools.map((t) => t.name),
          fr: frTools.map((t) => t.name),
          de: deTools.map((t) => t.name)
        }
      );
      const titled = enTools.filter((t) => typeof t.title === 'string');
      const title = (ts: Tool[], name: string) =>
        ts.find((t) => t.name === name)?.title;
      const translated = titled.filter((t) => {
        const f = title(frTools, t.name);
        const d = title(deTools, t.name);
        return (
          f !== undefined &&
          d !== undefined &&
          f !== t.title &&
          d !== t.title &&
          f !== d
        );
      });
      if (titled.length === 0) {
        checks.push(
          untestableCheck(
            'sep-2792-display-text-translated',
            'ToolTitlesTranslated',
            'Tool titles are translated into the selected language',
            'no tool in tools/list carries a title (the fixture contract asks for one)',
            SPEC_REFS,
            'WARNING'
          )
        );
      } else {
        push(
          'sep-2792-display-text-translated',
          'ToolTitlesTranslated',
          'Tool titles are translated into the selected language',
          translated.length > 0,
          `no tool title differs between en, fr and de (titled tools: ${titled.map((t) => t.name).join(', ')})`,
          [],
          {
            titles: titled.map((t) => ({
              name: t.name,
              en: t.title,
              fr: title(frTools, t.name),
              de: title(deTools, t.name)
            }))
          },
          'WARNING'
        );
      }
    }

    // ---- Weights, exclusion, wildcard, case ----
    // Each case: the value, the ranges the answer may match (any one), the ranges it must not match.
    const matchingCases: Array<{
      id:
        | 'sep-2792-matching'
        | 'sep-2792-field-interpretation'
        | 'sep-2792-default-fallback';
      name: string;
      value: string;
      oneOf: string[];
      noneOf?: string[];
      why: string;
    }> = [
      {
        id: 'sep-2792-matching',
        name: 'Weights',
        value: 'de;q=0.5, fr;q=0.9',
        oneOf: ['fr'],
        why: 'the higher weight wins whatever the order'
      },
      {
        id: 'sep-2792-field-interpretation',
        name: 'WeightOverPosition',
        value: 'fr;q=0.1, de',
        oneOf: ['de'],
        why: 'weights, not list position, rank the ranges'
      },
      {
        id: 'sep-2792-field-interpretation',
        name: 'ZeroWeightExcludes',
        value: 'de;q=0, fr;q=0.2',
        oneOf: ['fr'],
        noneOf: ['de'],
        why: 'q=0 means "not acceptable"'
      },
      {
        id: 'sep-2792-matching',
        name: 'CaseInsensitive',
        value: 'DE',
        oneOf: ['de'],
        why: 'language ranges match case-insensitively'
      },
      {
        id: 'sep-2792-matching',
        name: 'RegionalPreference',
        value: 'fr-CA,fr;q=0.9,en;q=0.5',
        oneOf: ['fr'],
        why: 'fr-CA or fr is the best supported match (the SEP example)'
      },
      {
        id: 'sep-2792-matching',
        name: 'WildcardAlone',
        value: '*',
        oneOf: ['*'],
        why: 'a lone * is satisfied by any language the server supports (filtering) or falls to the default (lookup)'
      },
      {
        id: 'sep-2792-matching',
        name: 'WildcardBelowExplicit',
        value: 'de, *;q=0.5',
        oneOf: ['de'],
        why: 'an explicit range outranks a lower-weighted * under lookup and filtering'
      },
      {
        id: 'sep-2792-matching',
        name: 'WildcardWithExclusion',
        value: '*, de;q=0',
        oneOf: ['*'],
        noneOf: ['de'],
        why: 'de;q=0 excludes de; * then selects any other supported language (filtering) or the default (lookup)'
      },
      {
        id: 'sep-2792-field-interpretation',
        name: 'WildcardSparesExcluded',
        value: 'fr;q=0, *',
        oneOf: ['*'],
        noneOf: ['fr'],
        why: '* covers only languages no other range names (filtering) and lookup never returns an excluded language, so fr stays excluded'
      },
      {
        id: 'sep-2792-field-interpretation',
        name: 'WildcardZeroSparesNamed',
        value: 'fr, *;q=0',
        oneOf: ['fr'],
        why: '*;q=0 excludes only the languages no other range names; fr is named with q=1'
      },
      ...['0', '0.0', '0.000'].map((zero) => ({
        id: 'sep-2792-field-interpretation' as const,
        name: `ZeroWeightAlone_${zero}`,
        value: `fr;q=${zero}`,
        oneOf: ['en'],
        noneOf: ['fr'],
        why: `q=${zero} makes fr not acceptable and nothing else is named, so the default answers`
      })),
      ...['en, fr;q=0.5', 'fr;q=0.5, en', 'fr;q=0.8, en;q=0.9'].map(
        (value, i) => ({
          id: 'sep-2792-matching' as const,
          name: `DefaultNegotiated_${i + 1}`,
          value,
          oneOf: ['en'],
          why: 'the default language is a supported language weighed like the others, not only the fallback'
        })
      ),
      ...[
        'fr;q=0.5, de;q=0.45',
        'de;q=0.45, fr;q=0.5',
        'de;q=0.5, fr;q=1',
        'de;q=0.04, fr;q=0.05',
        'de;q=0.004, fr;q=0.005'
      ].map((value, i) => ({
        id: 'sep-2792-field-interpretation' as const,
        name: `WeightDecimals_${i + 1}`,
        value,
        oneOf: ['fr'],
        why: 'a weight is a decimal fraction of up to three digits: each digit counts, and 0.5 outweighs 0.45'
      })),
      {
        id: 'sep-2792-matching',
        name: 'ExcludedRegionSparesLanguage',
        value: 'fr-ZZ;q=0, fr;q=0.5, de;q=0.4',
        oneOf: ['fr'],
        why: 'fr-ZZ;q=0 excludes only tags starting with fr-ZZ; fr keeps its own weight 0.5, above de'
      },
      {
        id: 'sep-2792-matching',
        name: 'ExcludedRegionKeepsLanguage',
        value: 'de-ZZ;q=0, de',
        oneOf: ['de'],
        why: 'excluding the region de-ZZ does not exclude the language de'
      },
      ...['fr-ZZ', 'de-ZZ'].map((value) => ({
        id: 'sep-2792-matching' as const,
        name: `UnsupportedRegion_${value}`,
        value,
        oneOf: [value.slice(0, 2), 'en'],
        why: `a region of a supported language that the server lacks gets that language (lookup truncates ${value} to ${value.slice(0, 2)}) or the default (filtering finds nothing), never another language`
      })),
      ...longLists().map((value, i) => ({
        id: 'sep-2792-matching' as const,
        name: `LongList_${i + 1}`,
        value,
        oneOf: ['fr'],
        why: `of ${value.split(',').length} ranges (${value.length} bytes), the last, fr, is the only supported language rated highest: every range counts, however many there are`
      })),
      ...['xx', 'xx, *;q=0', 'xx-x-private'].map((value, i) => ({
        id: 'sep-2792-default-fallback' as const,
        name: `DefaultFallback_${i + 1}`,
        value,
        oneOf: ['en'],
        why: 'no supported language matches, so the default answers, without an error'
      }))
    ];
    for (const c of matchingCases) {
      const description = `acceptLanguage ${shown(c.value)}: ${c.why}`;
      const refs = [RFC_4647, RFC_9110_ACCEPT_LANGUAGE];
      const ex = await send({ meta: c.value });
      if (!answered(ex, c.id, c.name, description, refs)) continue;
      const got = selected(ex, c.id, c.name, description, refs);
      if (got === undefined) continue;
      // A report of several languages (RFC 9110 §8.5) matches when one of
      // them does; `*` in oneOf: any language.
      const ok =
        c.oneOf.some((r) => r === '*' || includesLanguage(got, r)) &&
        !(c.noneOf ?? []).some((r) => includesLanguage(got, r));
      push(
        c.id,
        c.name,
        description,
        ok,
        `acceptLanguage ${shown(c.value)} was answered in ${quote(got)}; expected ${c.oneOf[0] === '*' ? 'any language' : `a tag matching ${c.oneOf.join(' or ')}`}${c.noneOf ? ` and none matching ${c.noneOf.join(' or ')}` : ''}`,
        refs,
        { acceptLanguage: shown(c.value), contentLanguage: got }
      );
    }

    // ---- The wildcard read one way throughout ----
    // `*;q=0.5, fr;q=0.1`: filtering rates every language but fr at 0.5 and
    // picks another; lookup skips `*` and picks fr. Either reading is
    // allowed, but the server's reading then decides `en;q=0, *`: filtering
    // accepts any supported language but en; lookup ends on `*` and falls
    // back to the default.
    {
      const id = 'sep-2792-field-interpretation';
      const name = 'WildcardReadingConsistent';
      const probe = '*;q=0.5, fr;q=0.1';
      const value = 'en;q=0, *';
      const description = `acceptLanguage "${value}" is read as the server reads "${probe}" (filtering or lookup)`;
      const refs = [RFC_4647, RFC_9110_ACCEPT_LANGUAGE];
      const first = await send({ meta: probe });
      const second = await send({ meta: value });
      if (
        answered(first, id, name, description, refs) &&
        answered(second, id, name, description, refs)
      ) {
        const reading = selected(first, id, name, description, refs);
        const got =
          reading === undefined
            ? undefined
            : selected(second, id, name, description, refs);
        if (reading !== undefined && got !== undefined) {
          const lookup = includesLanguage(reading, 'fr');
          push(
            id,
            name,
            description,
            // A report of several languages (RFC 9110 §8.5) passes when one
            // of them is not the excluded en.
            lookup ||
              got.split(',').some((tag) => !tagMatches(tag.trim(), 'en')),
            `"${probe}" was answered in ${quote(reading)} (filtering: * rates every language fr is not), so "${value}" must be answered in a supported language other than the excluded en, not ${quote(got)}`,
            refs,
            { [probe]: reading, [value]: got }
          );
        }
      }
    }

    // ---- Default fallback ----
    {
      const value = 'xx-YY, xx;q=0.5';
      const description = `An unmatched preference ("${value}") is answered in the default language without an error`;
      const ex = await send({ meta: value });
      if (ex.body?.error !== undefined) {
        // The error is the violation itself, not a missing prerequisite.
        push(
          'sep-2792-default-fallback',
          'DefaultFallback',
          description,
          false,
          `acceptLanguage "${value}" (no supported language matches) was answered with an error: ${describe(ex)}`,
          [],
          { acceptLanguage: value, status: ex.status, error: ex.body.error }
        );
      } else if (
        answered(
          ex,
          'sep-2792-default-fallback',
          'DefaultFallback',
          description,
          []
        )
      ) {
        const got = reported(ex);
        if (got === undefined) {
          selected(
            ex,
            'sep-2792-default-fallback',
            'DefaultFallback',
            description,
            []
          );
        } else
          push(
            'sep-2792-default-fallback',
            'DefaultFallback',
            description,
            includesLanguage(got, 'en'),
            `acceptLanguage "${value}" was answered in ${quote(got)}; expected the default "en"`,
            [],
            { acceptLanguage: value, contentLanguage: got }
          );
        push(
          'sep-2792-content-language-reported',
          'ContentLanguageReportedOnFallback',
          'A fallback to the default reports the language used',
          got !== undefined,
          `tools/list with unmatched acceptLanguage "${value}" carried no contentLanguage`,
          [],
          { acceptLanguage: value }
        );
      }
    }

    // ---- Malformed value treated as absent ----
    for (const value of ['de;q=2', 'de_DE', 'de;q=0.5;q=0.6']) {
      const ex = await send({ meta: value });
      const rejected = toolsOf(ex) === undefined;
      push(
        'sep-2792-malformed-no-error',
        'MalformedNoError',
        `A malformed acceptLanguage ("${value}") produces no error`,
        !rejected,
        `malformed acceptLanguage "${value}" was rejected: ${describe(ex)}`,
        [RFC_9110_ACCEPT_LANGUAGE],
        { acceptLanguage: value, status: ex.status }
      );
      if (rejected) continue;
      const got = reported(ex);
      const baseline = reported(none);
      const titles = (e: Exchange) =>
        JSON.stringify(toolsOf(e)?.map((t) => [t.name, t.title]));
      push(
        'sep-2792-grammar-validated',
        'MalformedIgnored',
        `A malformed acceptLanguage ("${value}") is ignored as an absent preference`,
        !includesLanguage(got, 'de') &&
          titles(ex) === titles(none) &&
          (got === undefined || baseline === undefined || got === baseline),
        `malformed acceptLanguage "${value}" was answered in ${quote(got)} with titles ${titles(ex)}; without a preference the answer is in ${quote(baseline)} with titles ${titles(none)}`,
        [RFC_9110_ACCEPT_LANGUAGE],
        {
          acceptLanguage: value,
          contentLanguage: got,
          withoutPreference: baseline
        }
      );
    }

    // ---- Every malformed test vector ignored, every well-formed edge read ----
    {
      // Values that cannot be a field value go without Accept-Language,
      // which a server MAY refuse: then they are not sent.
      const bare = await send({ meta: 'de', header: [] });
      const headerless = toolsOf(bare) !== undefined;
      const titles = (e: Exchange) =>
        JSON.stringify(toolsOf(e)?.map((t) => [t.name, t.title]));
      const baseline = reported(none);
      const errors: string[] = [];
      const repaired: string[] = [];
      const misread: string[] = [];
      const results: Array<Record<string, unknown>> = [];
      let skipped = 0;
      /** Sends one vector and records its answer; undefined when it is not sent. */
      const probe = async (
        name: string,
        value: string
      ): Promise<{ ex: Exchange; got: string | undefined } | undefined> => {
        if (!sendable(value) && !headerless) {
          skipped++;
          return undefined;
        }
        const ex = await send(
          sendable(value) ? { meta: value } : { meta: value, header: [] }
        );
        const got = reported(ex);
        results.push({
          vector: name,
          acceptLanguage: value,
          contentLanguage: got,
          status: ex.status
        });
        return { ex, got };
      };
      /** Answered as without a preference: the same titles and report. */
      const asWithout = (ex: Exchange, got: string | undefined) =>
        titles(ex) === titles(none) &&
        (got === undefined || baseline === undefined || got === baseline);
      for (const [name, value] of MALFORMED_VECTORS) {
        const answer = await probe(name, value);
        if (answer === undefined) continue;
        const { ex, got } = answer;
        if (toolsOf(ex) === undefined) {
          errors.push(`${name} ${JSON.stringify(value)}: ${describe(ex)}`);
        } else if (includesLanguage(got, 'fr') || !asWithout(ex, got)) {
          repaired.push(
            `${name} ${JSON.stringify(value)} answered in ${quote(got)}`
          );
        }
      }
      for (const [name, value, want] of WELL_FORMED_VECTORS) {
        const answer = await probe(name, value);
        if (answer === undefined) continue;
        const { ex, got } = answer;
        if (toolsOf(ex) === undefined) {
          misread.push(`${name} ${JSON.stringify(value)}: ${describe(ex)}`);
        } else if (
          want === 'en'
            ? !asWithout(ex, got)
            : got === undefined
              ? titles(ex) !== titles(fr)
              : !includesLanguage(got, want)
        ) {
          misread.push(
            `${name} ${JSON.stringify(value)} answered in ${quote(got)}, expected ${want === 'en' ? 'the answer without a preference' : `"${want}"`}`
          );
        }
      }
      const note =
        skipped > 0
          ? ` (${skipped} values that cannot be a field value not sent: the server refuses a request without Accept-Language)`
          : '';
      push(
        'sep-2792-malformed-no-error',
        'MalformedVectorsNoError',
        `None of ${MALFORMED_VECTORS.length} malformed acceptLanguage values produces an error${note}`,
        errors.length === 0,
        `malformed values were rejected: ${errors.join('; ')}`,
        [RFC_9110_ACCEPT_LANGUAGE],
        { rejected: errors }
      );
      push(
        'sep-2792-grammar-validated',
        'MalformedVectorsIgnored',
        `Each of ${MALFORMED_VECTORS.length} malformed acceptLanguage values naming "fr" is ignored as an absent preference, never repaired${note}`,
        repaired.length === 0,
        `malformed values were read instead of ignored: ${repaired.join('; ')}`,
        [RFC_9110_ACCEPT_LANGUAGE, RFC_4647],
        { repaired, results }
      );
      push(
        'sep-2792-field-interpretation',
        'WellFormedEdges',
        `Each of ${WELL_FORMED_VECTORS.length} well-formed acceptLanguage values at the grammar's edges (empty elements, OWS, Q=, qvalue spellings) is read as RFC 9110 reads it${note}`,
        misread.length === 0,
        `well-formed values were misread: ${misread.join('; ')}`,
        [RFC_9110_ACCEPT_LANGUAGE, RFC_9110_FIELD_VALUES],
        { misread }
      );
    }

    /** The tool titles of a tools/list answer, by name. */
    const titlesOf = (ex: Exchange) =>
      JSON.stringify((toolsOf(ex) ?? []).map((t) => [t.name, t.title]));
    /** Whether the answers to "fr", "de" and no preference can be told apart. */
    const distinguishable =
      [fr, de, none].every((ex) => toolsOf(ex) !== undefined) &&
      ((titlesOf(fr) !== titlesOf(de) &&
        titlesOf(fr) !== titlesOf(none) &&
        titlesOf(de) !== titlesOf(none)) ||
        (includesLanguage(reported(fr), 'fr') &&
          includesLanguage(reported(de), 'de')));
    const indistinguishable =
      'answers to "fr", "de" and no preference cannot be told apart (neither their tool titles nor a reported contentLanguage differ)';

    // ---- server/discover: serverInfo stable; its preference not kept for later requests ----
    {
      const discovered = new Map<string, Exchange>();
      for (const lang of ['en', 'fr', 'de']) {
        discovered.set(lang, await post('server/discover', {}, { meta: lang }));
      }
      const after = await send({});
      /** serverInfo.name, from result._meta (draft) or result.serverInfo. */
      const serverName = (ex: Exchange): string | undefined => {
        const result = ex.body?.result as Record<string, unknown> | undefined;
        const meta = result?._meta as Record<string, unknown> | undefined;
        const info = (meta?.['io.modelcontextprotocol/serverInfo'] ??
          result?.serverInfo) as Record<string, unknown> | undefined;
        return typeof info?.name === 'string' ? info.name : undefined;
      };
      const names = [...discovered].map(
        ([lang, ex]) => [lang, serverName(ex)] as const
      );
      // serverInfo is a SHOULD of server/discover: without it, nothing to compare.
      if (names.every(([, name]) => name !== undefined)) {
        push(
          'sep-2792-identifiers-stable',
          'ServerNameStable',
          'serverInfo.name, an identifier, is the same in every language',
          new Set(names.map(([, name]) => name)).size === 1,
          `server/discover named the server ${names.map(([lang, name]) => `${quote(name)} under "${lang}"`).join(', ')}`,
          [],
          Object.fromEntries(names)
        );
      }
      // The last discover asked for "de"; the tools/list after it has no
      // preference and must be answered as the first one without.
      if (toolsOf(after) !== undefined && toolsOf(none) !== undefined) {
        const same =
          reported(after) === reported(none) &&
          JSON.stringify(toolsOf(after)?.map((t) => [t.name, t.title])) ===
            JSON.stringify(toolsOf(none)?.map((t) => [t.name, t.title]));
        push(
          'sep-2792-no-reuse',
          'NoHandshakeBinding',
          'A request without a preference is not answered with the preference of an earlier server/discover',
          same,
          `tools/list without a preference, after server/discover with "de", was answered in ${quote(reported(after))}; the first such request was answered in ${quote(reported(none))}`,
          [],
          { after: reported(after), first: reported(none) }
        );
      }
    }

    // ---- Request scope: change and omission on consecutive requests over one connection ----
    // Each answer must match the first answer given to the same preference
    // (same reported language, same titles), whatever came before it.
    {
      const firstAnswer = new Map<string | undefined, Exchange>([
        ['fr', fr],
        ['de', de],
        [undefined, none]
      ]);
      const ids: Array<[string, string, string]> = [
        [
          'sep-2792-no-reuse',
          'NoReuseOnChangeOrOmission',
          'Consecutive requests that change or omit the preference are never answered with an earlier one'
        ],
        [
          'sep-2792-no-session-binding',
          'NoConnectionBinding',
          'The preference is not bound to the connection the requests share'
        ]
      ];
      if (!distinguishable) {
        for (const [id, name, description] of ids) {
          checks.push(
            untestableCheck(id, name, description, indistinguishable, SPEC_REFS)
          );
        }
      } else {
        const sequence: Array<string | undefined> = [
          'fr',
          'de',
          undefined,
          'fr',
          undefined,
          'de',
          'fr'
        ];
        const results: Array<{
          acceptLanguage?: string;
          contentLanguage?: string;
        }> = [];
        let broken = '';
        for (const value of sequence) {
          const ex = await send({ meta: value });
          const got = reported(ex);
          const first = firstAnswer.get(value)!;
          results.push({ acceptLanguage: value, contentLanguage: got });
          const step = `request ${results.length} (${value === undefined ? 'no preference' : `"${value}"`})`;
          if (toolsOf(ex) === undefined) {
            broken ||= `${step} failed (${describe(ex)})`;
          } else if (
            titlesOf(ex) !== titlesOf(first) ||
            got !== reported(first)
          ) {
            broken ||= `${step} was answered in ${quote(got)} with titles ${titlesOf(ex)}, unlike the first such request (${quote(reported(first))}, ${titlesOf(first)})`;
          }
        }
        for (const [id, name, description] of ids) {
          push(id, name, description, broken === '', broken, [], {
            sequence: results
          });
        }
      }
    }

    // ---- Streamable HTTP: Content-Language, one field line, Vary ----
    for (const [ex, lang] of [
      [fr, 'fr'],
      [de, 'de']
    ] as const) {
      const got = reported(ex);
      const varies =
        got !== undefined ||
        JSON.stringify(toolsOf(ex)?.map((t) => t.title)) !==
          JSON.stringify(toolsOf(none)?.map((t) => t.title));
      if (!varies || toolsOf(ex) === undefined) continue;
      const mirror = fieldValues(ex, 'content-language');
      // An event stream may omit Content-Language; one it sends is checked
      // against every message on it at the end.
      if (!isEventStream(ex) && got !== undefined) {
        push(
          'sep-2792-content-language-mirrored',
          `ContentLanguageMirrored_${lang}`,
          'A JSON response carrying contentLanguage mirrors it into Content-Language',
          mirror.length > 0 && mirror.join(', ') === got,
          `Content-Language ${mirror.length ? quote(mirror.join(', ')) : '(absent)'}, contentLanguage ${quote(got)}`,
          [RFC_9110_CONTENT_LANGUAGE],
          { contentLanguageHeader: mirror, contentLanguage: got }
        );
      }
      if (mirror.length > 0) {
        push(
          'sep-2792-single-field-line',
          `ContentLanguageSingleLine_${lang}`,
          'Content-Language is sent as exactly one field line',
          mirror.length === 1,
          `Content-Language was sent on ${mirror.length} field lines`,
          [RFC_9110_FIELD_VALUES],
          { contentLanguageHeader: mirror }
        );
      }
      const vary = fieldValues(ex, 'vary');
      push(
        'sep-2792-vary-accept-language',
        `VaryAcceptLanguage_${lang}`,
        'A response that varies by language carries Vary: Accept-Language',
        variesByLanguage(ex),
        `Vary was ${vary.length ? quote(vary.join(', ')) : '(absent)'}`,
        [RFC_9110_VARY],
        { vary: fieldValues(ex, 'vary') }
      );
    }

    // ---- Missing Accept-Language (MAY tolerate; then _meta is canonical) ----
    {
      const ex = await send({ meta: 'de', header: [] });
      const got = reported(ex);
      const tolerated = toolsOf(ex) !== undefined;
      checks.push({
        id: 'sep-2792-missing-header-tolerated',
        name: 'MissingHeaderTolerated',
        description:
          'A request with acceptLanguage but no Accept-Language header is served from the canonical _meta value (MAY)',
        status: tolerated ? 'SUCCESS' : 'INFO',
        timestamp: new Date().toISOString(),
        errorMessage: tolerated
          ? undefined
          : `not tolerated (${describe(ex)}); the SEP allows this, but an intermediary that strips the header will break requests`,
        specReferences: SPEC_REFS,
        details: { status: ex.status, contentLanguage: got }
      });
      // Served, the request's preference is still its _meta value, which a
      // server that takes part matches like any other.
      if (
        tolerated &&
        got !== undefined &&
        includesLanguage(reported(de), 'de')
      ) {
        push(
          'sep-2792-matching',
          'MissingHeaderMetaMatched',
          'A request served without Accept-Language is matched on its canonical _meta value',
          includesLanguage(got, 'de'),
          `acceptLanguage "de" without Accept-Language was served in ${quote(got)}; with the header it selects "de"`,
          [RFC_4647],
          { contentLanguage: got }
        );
      }
    }

    // ---- Caching: the preference in every cache key; private when a shared cache cannot see it ----
    {
      // A cache keyed without the preference (or on the header alone, which
      // an intermediary may strip) answers a request with another one's
      // variant: "fr" then "de" in a row, the header sent, then stripped; each
      // answer must be the one that preference gets alone.
      const id = 'sep-2792-cache-key-language';
      const name = 'CacheKeyIncludesPreference';
      const description =
        'Consecutive tools/list requests that differ only in acceptLanguage ("fr", then "de") are each answered for their own preference, with the Accept-Language mirror sent and stripped';
      if (!distinguishable) {
        checks.push(
          untestableCheck(id, name, description, indistinguishable, SPEC_REFS)
        );
      } else {
        let broken = '';
        const legs: Array<Record<string, unknown>> = [];
        for (const header of ['sent', 'stripped'] as const) {
          const plan = (value: string): Preference =>
            header === 'sent' ? { meta: value } : { meta: value, header: [] };
          const first = await send(plan('fr'));
          if (toolsOf(first) === undefined) {
            // A server MAY refuse a request whose header is missing.
            legs.push({ header, refused: describe(first) });
            continue;
          }
          const second = await send(plan('de'));
          legs.push({
            header,
            contentLanguage: [reported(first), reported(second)]
          });
          for (const [ex, value, alone] of [
            [first, 'fr', fr],
            [second, 'de', de]
          ] as const) {
            if (
              titlesOf(ex) !== titlesOf(alone) ||
              reported(ex) !== reported(alone)
            ) {
              broken ||= `tools/list with acceptLanguage "${value}" (Accept-Language ${header}) was answered in ${quote(reported(ex))} with titles ${titlesOf(ex)}, not as "${value}" alone (${quote(reported(alone))}, ${titlesOf(alone)})`;
            }
          }
        }
        push(id, name, description, broken === '', broken, [RFC_9110_VARY], {
          legs
        });
      }
    }
    {
      // Two preferences that select the same language are two cache entries
      // (the SEP: "even when both preferences happen to select the same
      // language"). With the header, Vary: Accept-Language keeps them apart in
      // an HTTP cache; with the header stripped, no shared cache can, so the
      // answer must be private.
      const prime = await send({ meta: 'fr' });
      const value = 'fr, *;q=0.1';
      const withHeader = await send({ meta: value });
      const stripped = await send({ meta: value, header: [] });
      const description = `tools/list with acceptLanguage ${JSON.stringify(value)} after "fr" (both select fr) is kept apart from the "fr" variant: Vary: Accept-Language with the header, private without it`;
      if (toolsOf(prime) === undefined || toolsOf(withHeader) === undefined) {
        checks.push(
          untestableCheck(
            'sep-2792-cache-no-cross-language',
            'NoCrossPreferenceReuse',
            description,
            `tools/list did not return a list of tools (${describe(toolsOf(prime) === undefined ? prime : withHeader)})`,
            SPEC_REFS
          )
        );
      } else {
        const problems: string[] = [];
        if (!variesByLanguage(withHeader)) {
          problems.push(
            `with its header, the answer has no Vary: Accept-Language (Vary ${quote(fieldValues(withHeader, 'vary').join(', ') || undefined)}), so an HTTP cache may serve the "fr" variant for it`
          );
        }
        if (toolsOf(stripped) !== undefined && !isPrivate(stripped)) {
          problems.push(
            `without its header, the answer is not private (Cache-Control ${quote(fieldValues(stripped, 'cache-control').join(', ') || undefined)}), so a shared cache may serve it for "fr" or the "fr" variant for it`
          );
        }
        push(
          'sep-2792-cache-no-cross-language',
          'NoCrossPreferenceReuse',
          description,
          problems.length === 0,
          problems.join('; '),
          [RFC_9110_VARY],
          {
            acceptLanguage: value,
            vary: fieldValues(withHeader, 'vary'),
            strippedStatus: stripped.status,
            strippedCacheControl: fieldValues(stripped, 'cache-control')
          }
        );
      }
      // A preference whose header was stripped: no shared cache can see it.
      const other = 'de, *;q=0.2';
      const strippedOther = await send({ meta: other, header: [] });
      const answers = [
        [value, stripped],
        [other, strippedOther]
      ] as const;
      const served = answers.filter(([, ex]) => toolsOf(ex) !== undefined);
      const descriptionPrivate =
        'A response to a request whose Accept-Language was stripped (acceptLanguage only in _meta) is private: Cache-Control private or no-store';
      if (served.length === 0) {
        // Declining the MAY of a missing header leaves no response to cache.
        checks.push({
          id: 'sep-2792-stripped-header-private',
          name: 'StrippedHeaderPrivate',
          description: descriptionPrivate,
          status: 'INFO',
          timestamp: new Date().toISOString(),
          errorMessage: `requests without Accept-Language were refused (${describe(stripped)}), so no response exists to cache`,
          specReferences: SPEC_REFS,
          details: { status: stripped.status }
        });
      } else {
        const shared = served.filter(([, ex]) => !isPrivate(ex));
        push(
          'sep-2792-stripped-header-private',
          'StrippedHeaderPrivate',
          descriptionPrivate,
          shared.length === 0,
          shared
            .map(
              ([v, ex]) =>
                `acceptLanguage ${JSON.stringify(v)} without Accept-Language was answered with Cache-Control ${quote(fieldValues(ex, 'cache-control').join(', ') || undefined)}`
            )
            .join('; '),
          [],
          {
            answers: served.map(([v, ex]) => ({
              acceptLanguage: v,
              cacheControl: fieldValues(ex, 'cache-control')
            }))
          }
        );
      }
    }

    // ---- Agreement between Accept-Language and _meta ----
    const agreement: Array<{
      id: string;
      name: string;
      meta: string;
      header: string[];
      agree: boolean;
      refs: SpecReference[];
    }> = [
      {
        id: 'sep-2792-header-mismatch',
        name: 'MismatchRejected',
        meta: 'fr',
        header: ['de'],
        agree: false,
        refs: []
      },
      {
        id: 'sep-2792-agreement-edge-cases',
        name: 'EdgeCaseTagCase',
        meta: 'en-US',
        header: ['en-us'],
        agree: false,
        refs: []
      },
      {
        id: 'sep-2792-agreement-edge-cases',
        name: 'EdgeCaseListWhitespace',
        meta: 'en-US,en;q=0.9',
        header: ['en-US, en;q=0.9'],
        agree: false,
        refs: []
      },
      {
        id: 'sep-2792-agreement-edge-cases',
        name: 'EdgeCaseQSpelling',
        meta: 'en;q=0.9',
        header: ['en;q=0.900'],
        agree: false,
        refs: []
      },
      {
        id: 'sep-2792-agreement-meta-verbatim',
        name: 'MetaNotTrimmed',
        meta: 'de ',
        header: ['de'],
        agree: false,
        refs: []
      },
      {
        id: 'sep-2792-agreement-no-normalization',
        name: 'RangesNotReordered',
        meta: 'fr, de',
        header: ['de, fr'],
        agree: false,
        refs: []
      },
      {
        id: 'sep-2792-agreement-no-normalization',
        name: 'MalformedCompared',
        meta: 'de;q=2',
        header: ['de;q=3'],
        agree: false,
        refs: []
      },
      {
        id: 'sep-2792-agreement-every-field-line',
        name: 'SecondLineConflicts',
        meta: 'fr',
        header: ['fr', 'de'],
        agree: false,
        refs: [RFC_9110_FIELD_VALUES]
      },
      {
        id: 'sep-2792-agreement-surrounding-whitespace',
        name: 'SurroundingWhitespace',
        meta: 'en',
        header: ['  en '],
        agree: true,
        refs: [RFC_9110_FIELD_VALUES]
      },
      {
        id: 'sep-2792-agreement-combined-field-lines',
        name: 'CombinedFieldLines',
        meta: 'en-US, en;q=0.9',
        header: ['en-US', 'en;q=0.9'],
        agree: true,
        refs: [RFC_9110_FIELD_VALUES]
      }
    ];
    for (const c of agreement) {
      // Each on a connection of its own: a server that reads its own bytes
      // (or a proxy in front of it) sees every edge case as written.
      const ex = await send({ meta: c.meta, header: c.header, fresh: true });
      const shown = c.header.map((h) => JSON.stringify(h)).join(' + ');
      const rejected =
        ex.status === 400 && ex.body?.error?.code === HEADER_MISMATCH;
      if (c.agree) {
        push(
          c.id,
          c.name,
          `Accept-Language ${shown} agrees with _meta ${JSON.stringify(c.meta)}`,
          toolsOf(ex) !== undefined,
          `Accept-Language ${shown} and _meta ${JSON.stringify(c.meta)} agree, but the request failed: ${describe(ex)}`,
          c.refs,
          { acceptLanguage: c.meta, header: c.header, status: ex.status }
        );
      } else {
        push(
          c.id,
          c.name,
          `Accept-Language ${shown} and _meta ${JSON.stringify(c.meta)} do not agree: HTTP 400 with HeaderMismatch (-32020)`,
          rejected,
          `expected HTTP 400 with JSON-RPC error -32020, got ${describe(ex)}`,
          c.refs,
          {
            acceptLanguage: c.meta,
            header: c.header,
            status: ex.status,
            error: ex.body?.error
          }
        );
      }
    }

    // ---- A localized error: its contentLanguage in error.data._meta, error.data an object ----
    {
      const call = { name: 'test_localized_error', arguments: {} };
      const answers = new Map<string, Exchange>();
      for (const lang of ['en', 'fr', 'de']) {
        answers.set(lang, await post('tools/call', call, { meta: lang }));
      }
      const en_ = answers.get('en')!;
      const fr_ = answers.get('fr')!;
      const enError = en_.body?.error;
      const frError = fr_.body?.error;
      const id = 'sep-2792-error-data-object';
      const name = 'ErrorDataObject';
      const description =
        'An error localized under "fr" carries contentLanguage in error.data._meta, error.data being an object';
      const codes = [...answers.values()].map((ex) => ex.body?.error?.code);
      const codeCheck = (): void =>
        push(
          'sep-2792-identifiers-stable',
          'ErrorCodeStable',
          'error.code of the localized error is the same in en, fr and de',
          codes.every((c) => c !== undefined && c === codes[0]),
          `error.code under en, fr and de: ${codes.map((c) => (c === undefined ? '(none)' : String(c))).join(', ')}`,
          [],
          { codes }
        );
      if (enError && frError && enError.message === frError.message) {
        // Error.message is a MAY: left untranslated, the error may report
        // the language its text is in (the default's), or nothing.
        const data = frError.data;
        const got =
          typeof data === 'object' && data !== null && !Array.isArray(data)
            ? metaLanguage((data as Record<string, unknown>)._meta)
            : undefined;
        codeCheck();
        if (got !== undefined) {
          push(
            'sep-2792-content-language-reported',
            'ErrorContentLanguageReported',
            'An error reports the language its text is in: left untranslated under "fr", the default "en"',
            includesLanguage(got, 'en'),
            `the error left untranslated under "fr" (its message is the "en" one) reports ${quote(got)} in error.data._meta["${CONTENT_LANGUAGE}"]`,
            [],
            { error: frError }
          );
        }
      } else if (!enError || !frError) {
        const reason = `test_localized_error did not answer "en" and "fr" with JSON-RPC errors (en: ${describe(en_)}; fr: ${describe(fr_)})`;
        checks.push(
          untestableCheck(id, name, description, reason, SPEC_REFS),
          untestableCheck(
            'sep-2792-content-language-reported',
            'ErrorContentLanguageReported',
            'A localized error reports the language used in error.data._meta',
            reason,
            SPEC_REFS
          )
        );
      } else {
        const data = frError.data;
        const isObject =
          typeof data === 'object' && data !== null && !Array.isArray(data);
        const got = isObject
          ? metaLanguage((data as Record<string, unknown>)._meta)
          : undefined;
        push(
          id,
          name,
          description,
          isObject,
          `the error localized under "fr" has error.data ${data === undefined ? '(absent)' : JSON.stringify(data)}, not an object to carry contentLanguage in its _meta`,
          [],
          { error: frError }
        );
        push(
          'sep-2792-content-language-reported',
          'ErrorContentLanguageReported',
          'A localized error reports the language used in error.data._meta',
          includesLanguage(got, 'fr'),
          `the error localized under "fr" reports ${quote(got)} in error.data._meta["${CONTENT_LANGUAGE}"]`,
          [],
          { error: frError }
        );
        codeCheck();
        if (got !== undefined && !isEventStream(fr_)) {
          const mirror = fieldValues(fr_, 'content-language');
          push(
            'sep-2792-content-language-mirrored',
            'ErrorContentLanguageMirrored',
            'A JSON error response carrying contentLanguage in error.data._meta mirrors it into Content-Language',
            mirror.length > 0 && mirror.join(', ') === got,
            `Content-Language ${mirror.length ? quote(mirror.join(', ')) : '(absent)'}, error.data._meta contentLanguage ${quote(got)}`,
            [RFC_9110_CONTENT_LANGUAGE],
            { contentLanguageHeader: mirror, contentLanguage: got }
          );
        }
        push(
          'sep-2792-vary-accept-language',
          'VaryAcceptLanguage_error',
          'An error response that varies by language carries Vary: Accept-Language',
          variesByLanguage(fr_),
          `Vary was ${quote(fieldValues(fr_, 'vary').join(', ') || undefined)}`,
          [RFC_9110_VARY],
          { vary: fieldValues(fr_, 'vary') }
        );
      }
    }

    // ---- An explicit language argument takes precedence (SHOULD) ----
    for (const [preference, explicit] of [
      ['de', 'fr'],
      ['fr', 'de']
    ] as const) {
      const ex = await post(
        'tools/call',
        { name: 'test_explicit_language', arguments: { language: explicit } },
        { meta: preference }
      );
      const id = 'sep-2792-explicit-language-argument';
      const name = `ExplicitArgumentWins_${explicit}`;
      const description = `test_explicit_language with language "${explicit}" under acceptLanguage "${preference}" returns its content in "${explicit}"`;
      const result = ex.body?.result;
      if (result === undefined || result.isError === true) {
        checks.push(
          untestableCheck(
            id,
            name,
            description,
            `test_explicit_language did not succeed (${describe(ex)}${result?.isError === true ? ', isError: true' : ''})`,
            SPEC_REFS,
            'WARNING'
          )
        );
        continue;
      }
      const got = reported(ex);
      push(
        'sep-2792-content-language-reported',
        `ContentLanguageReported_explicit_${explicit}`,
        'A result whose content language an explicit argument chose reports it',
        got !== undefined,
        `test_explicit_language with language "${explicit}" carried no string result._meta["${CONTENT_LANGUAGE}"]`,
        [],
        { acceptLanguage: preference, language: explicit }
      );
      if (got === undefined) {
        checks.push(
          untestableCheck(
            id,
            name,
            description,
            'the result reports no contentLanguage, so the language of its content cannot be seen',
            SPEC_REFS,
            'WARNING'
          )
        );
        continue;
      }
      push(
        id,
        name,
        description,
        includesLanguage(got, explicit),
        `test_explicit_language with language "${explicit}" under acceptLanguage "${preference}" returned content in ${quote(got)}: the explicit argument SHOULD take precedence over the preference`,
        [],
        {
          acceptLanguage: preference,
          language: explicit,
          contentLanguage: got
        },
        'WARNING'
      );
    }

    // ---- Localized elicitation: message and labels translated (SHOULD), keys stable, language reported ----
    {
      const call = { name: 'test_localized_elicitation', arguments: {} };
      /** The one elicitation/create request of an input_required result, with its key. */
      const elicitationOf = (
        ex: Exchange
      ): { key: string; request: Record<string, unknown> } | undefined => {
        const result = ex.body?.result;
        const requests = result?.inputRequests;
        // Before the draft: the request the server sent on the call's stream.
        const sent = ex.messages.find(
          (m) => m.method === 'elicitation/create' && m.id !== undefined
        );
        if (result?.resultType !== 'input_required') {
          return sent === undefined
            ? undefined
            : { key: STREAMED_ELICITATION, request: sent };
        }
        if (typeof requests !== 'object' || requests === null) return undefined;
        for (const [key, request] of Object.entries(requests)) {
          if (
            typeof request === 'object' &&
            request !== null &&
            (request as Record<string, unknown>).method === 'elicitation/create'
          ) {
            return { key, request: request as Record<string, unknown> };
          }
        }
        return undefined;
      };
      const paramsOf = (e: { request: Record<string, unknown> }) =>
        (e.request.params ?? {}) as Record<string, unknown>;
      const answers = new Map<string, Exchange>();
      for (const lang of ['en', 'fr', 'de']) {
        answers.set(lang, await post('tools/call', call, { meta: lang }));
      }
      const elicitations = new Map(
        [...answers].map(([lang, ex]) => [lang, elicitationOf(ex)])
      );
      const missing = [...answers].filter(
        ([lang]) => elicitations.get(lang) === undefined
      );
      // The retry of the "de" call (the last one), declining, asks for
      // "fr": a new request, never answered in the first call's language alone.
      const first = elicitations.get('de');
      if (first !== undefined && first.key !== STREAMED_ELICITATION) {
        const state = answers.get('de')!.body?.result?.requestState;
        const retry = await post(
          'tools/call',
          {
            ...call,
            inputResponses: { [first.key]: { action: 'decline' } },
            ...(state === undefined ? {} : { requestState: state })
          },
          { meta: 'fr' }
        );
        const got = reported(retry);
        if (got !== undefined) {
          push(
            'sep-2792-no-reuse',
            'RetryOwnPreference',
            "The retry of an input_required result is answered for its own preference, not the first call's",
            !(includesLanguage(got, 'de') && !includesLanguage(got, 'fr')),
            `the retry under "fr" of a call made under "de" was answered in ${quote(got)}`,
            [],
            { first: 'de', retry: 'fr', contentLanguage: got }
          );
        }
      }
      const textCheck = [
        'sep-2792-display-text-translated',
        'ElicitationTextTranslated',
        'The elicitation message and property titles and descriptions are translated into the selected language'
      ] as const;
      const keysCheck = [
        'sep-2792-identifiers-stable',
        'ElicitationKeysStable',
        'The elicitation request keys, mode and requested schema (property keys, types, formats, required) are the same in every language'
      ] as const;
      const reportCheck = [
        'sep-2792-content-language-reported',
        'ElicitationContentLanguageReported',
        'An input_required result with localized elicitation text reports the language used in result._meta'
      ] as const;
      if (
        missing.length > 0 &&
        version !== DRAFT_PROTOCOL_VERSION &&
        sessionId === undefined
      ) {
        // Before the draft an elicitation is a request on a session's
        // stream; a server that opened no session cannot send one.
        const reason = `protocol ${version} without a session: the server cannot send an elicitation/create request, so its text cannot be seen`;
        for (const [id, name, description] of [
          textCheck,
          keysCheck,
          reportCheck
        ]) {
          checks.push({
            id,
            name,
            description,
            status: 'INFO',
            timestamp: new Date().toISOString(),
            errorMessage: reason,
            specReferences: SPEC_REFS,
            details: {}
          });
        }
      } else if (missing.length > 0) {
        const reason = `test_localized_elicitation did not answer with an input_required result holding an elicitation/create request (${missing.map(([lang, ex]) => `"${lang}": ${describe(ex)}`).join('; ')})`;
        checks.push(
          untestableCheck(...textCheck, reason, SPEC_REFS, 'WARNING'),
          untestableCheck(...keysCheck, reason, SPEC_REFS),
          untestableCheck(...reportCheck, reason, SPEC_REFS)
        );
      } else {
        const base = paramsOf(elicitations.get('en')!);
        /** The display texts of an elicitation, by path: its message, each property's title and description. */
        const labels = (params: Record<string, unknown>) => {
          const out = new Map<string, unknown>([['message', params.message]]);
          const schema = params.requestedSchema as
            | { properties?: Record<string, Record<string, unknown>> }
            | undefined;
          for (const [key, property] of Object.entries(
            schema?.properties ?? {}
          )) {
            for (const label of ['title', 'description']) {
              if (typeof property?.[label] === 'string') {
                out.set(`${key}.${label}`, property[label]);
              }
            }
          }
          return out;
        };
        /** Everything but the display texts, with object keys sorted. */
        const skeleton = (e: {
          key: string;
          request: Record<string, unknown>;
        }) => {
          const params = paramsOf(e);
          const schema = JSON.parse(
            JSON.stringify(params.requestedSchema ?? null)
          ) as { properties?: Record<string, Record<string, unknown>> } | null;
          for (const property of Object.values(schema?.properties ?? {})) {
            delete property.title;
            delete property.description;
          }
          return canonical({
            key: e.key,
            method: e.request.method,
            mode: params.mode,
            requestedSchema: schema
          });
        };
        const baseLabels = labels(base);
        const untranslated: string[] = [];
        const reports: string[] = [];
        for (const lang of ['fr', 'de']) {
          const params = paramsOf(elicitations.get(lang)!);
          const here = labels(params);
          for (const [path, text] of here) {
            if (
              typeof text === 'string' &&
              text !== '' &&
              baseLabels.get(path) === text
            ) {
              untranslated.push(`"${lang}" ${path}`);
            }
          }
          // The input_required result's report; before the draft, the
          // streamed request's own.
          const got =
            elicitations.get(lang)!.key === STREAMED_ELICITATION
              ? metaLanguage(params._meta)
              : reported(answers.get(lang)!);
          const unchanged = params.message === base.message;
          if (got === undefined) {
            // Text left in the default language need not report one.
            if (!unchanged) {
              reports.push(
                `"${lang}": the message ${quote(typeof params.message === 'string' ? params.message : undefined)} is translated, but the result has no result._meta["${CONTENT_LANGUAGE}"]`
              );
            }
          } else if (
            !(
              includesLanguage(got, lang) ||
              (unchanged && includesLanguage(got, 'en'))
            )
          ) {
            reports.push(
              `"${lang}": contentLanguage ${quote(got)} with the message ${quote(typeof params.message === 'string' ? params.message : undefined)}`
            );
          }
        }
        push(
          ...textCheck,
          untranslated.length === 0,
          `left as in "en": ${untranslated.join(', ')}`,
          [],
          {
            en: Object.fromEntries(baseLabels),
            fr: Object.fromEntries(labels(paramsOf(elicitations.get('fr')!))),
            de: Object.fromEntries(labels(paramsOf(elicitations.get('de')!)))
          },
          'WARNING'
        );
        const skeletons = ['en', 'fr', 'de'].map((lang) =>
          skeleton(elicitations.get(lang)!)
        );
        push(
          ...keysCheck,
          skeletons.every((s) => s === skeletons[0]),
          `the elicitation differs beyond its message, titles and descriptions: en ${skeletons[0]}, fr ${skeletons[1]}, de ${skeletons[2]}`,
          [],
          { en: skeletons[0], fr: skeletons[1], de: skeletons[2] }
        );
        push(
          ...reportCheck,
          reports.length === 0,
          `the elicitation result does not report the language of its text: ${reports.join('; ')}`,
          [],
          {
            contentLanguage: Object.fromEntries(
              [...answers].map(([lang, ex]) => [lang, reported(ex)])
            )
          }
        );
      }
    }

    // ---- Localized progress: messages translated (SHOULD), each reported, tokens untouched ----
    {
      const call = { name: 'test_localized_progress', arguments: {} };
      const runs = new Map<
        string,
        { ex: Exchange; token: string; notes: Array<Record<string, unknown>> }
      >();
      for (const lang of ['en', 'fr', 'de']) {
        const token = `sep-2792-progress-${lang}`;
        const ex = await post(
          'tools/call',
          call,
          { meta: lang },
          { progressToken: token }
        );
        const notes = ex.messages.filter(
          (m) => m.method === 'notifications/progress'
        );
        runs.set(lang, { ex, token, notes });
      }
      const paramsOf = (note: Record<string, unknown>) =>
        (note.params ?? {}) as Record<string, unknown>;
      const messagesOf = (notes: Array<Record<string, unknown>>) =>
        notes
          .map((n) => paramsOf(n).message)
          .filter((m): m is string => typeof m === 'string');
      const textCheck = [
        'sep-2792-display-text-translated',
        'ProgressMessageTranslated',
        'Progress notification messages are translated into the selected language'
      ] as const;
      const tokenCheck = [
        'sep-2792-identifiers-stable',
        'ProgressTokenStable',
        "Every progress notification carries the client's progressToken, untouched, in every language"
      ] as const;
      const reportCheck = [
        'sep-2792-content-language-reported',
        'ProgressContentLanguageReported',
        'Each localized progress notification, and each translated log message sent with them, reports the language used in params._meta'
      ] as const;
      const baseMessages = messagesOf(runs.get('en')!.notes);
      const silent = [...runs].filter(
        ([, run]) => messagesOf(run.notes).length === 0
      );
      if (silent.length > 0) {
        const reason = `test_localized_progress sent no notifications/progress with a message for the request's progressToken (${silent.map(([lang, run]) => `"${lang}": ${run.notes.length} progress notifications, ${describe(run.ex)}`).join('; ')})`;
        checks.push(
          untestableCheck(...textCheck, reason, SPEC_REFS, 'WARNING'),
          untestableCheck(...tokenCheck, reason, SPEC_REFS),
          untestableCheck(...reportCheck, reason, SPEC_REFS)
        );
      } else {
        const untranslated: string[] = [];
        const reports: string[] = [];
        const tokens: string[] = [];
        for (const [lang, run] of runs) {
          for (const note of run.notes) {
            const params = paramsOf(note);
            if (params.progressToken !== run.token) {
              tokens.push(
                `"${lang}": ${JSON.stringify(params.progressToken) ?? '(absent)'} for "${run.token}"`
              );
            }
            if (lang === 'en' || typeof params.message !== 'string') continue;
            const unchanged = baseMessages.includes(params.message);
            if (unchanged)
              untranslated.push(`"${lang}" ${quote(params.message)}`);
            const got = metaLanguage(params._meta);
            if (got === undefined) {
              // A message left in the default language need not report one.
              if (!unchanged) {
                reports.push(
                  `"${lang}": ${quote(params.message)} is translated but carries no params._meta["${CONTENT_LANGUAGE}"]`
                );
              }
            } else if (
              !(
                includesLanguage(got, lang) ||
                (unchanged && includesLanguage(got, 'en'))
              )
            ) {
              reports.push(
                `"${lang}": ${quote(params.message)} reports contentLanguage ${quote(got)}`
              );
            }
          }
        }
        // A log message sent while handling the call, its text translated,
        // reports its language like the progress messages beside it.
        const logTexts = (ex: Exchange) =>
          ex.messages
            .filter((m) => m.method === 'notifications/message')
            .map((m) => paramsOf(m))
            .filter((p) => typeof p.data === 'string');
        const baseLogs = logTexts(runs.get('en')!.ex).map((p) => p.data);
        for (const [lang, run] of runs) {
          if (lang === 'en') continue;
          for (const params of logTexts(run.ex)) {
            if (baseLogs.includes(params.data)) continue;
            const got = metaLanguage(params._meta);
            if (!includesLanguage(got, lang)) {
              reports.push(
                `"${lang}": the log message ${quote(params.data as string)} is translated but reports ${quote(got)}`
              );
            }
          }
        }
        const details = Object.fromEntries(
          [...runs].map(([lang, run]) => [
            lang,
            run.notes.map((n) => ({
              progressToken: paramsOf(n).progressToken,
              message: paramsOf(n).message,
              contentLanguage: metaLanguage(paramsOf(n)._meta)
            }))
          ])
        );
        push(
          ...textCheck,
          untranslated.length === 0,
          `progress messages left as in "en": ${untranslated.join(', ')}`,
          [],
          details,
          'WARNING'
        );
        push(
          ...tokenCheck,
          tokens.length === 0,
          `progress notifications carry another token than the request's: ${tokens.join('; ')}`,
          [],
          details
        );
        push(
          ...reportCheck,
          reports.length === 0,
          `localized progress notifications do not report their language: ${reports.join('; ')}`,
          [],
          details
        );
      }
    }

    // ---- A prompt left untranslated is not labelled with another language ----
    // `test_simple_prompt` (the suite's prompt fixture), when the server has
    // it: its text under "fr", unchanged from the text the server itself
    // labels "en", may not be reported as "fr" only.
    {
      const listed = await post('prompts/list', {}, { meta: 'en' });
      const prompts = (
        listed.body?.result as Record<string, unknown> | undefined
      )?.prompts;
      const has =
        Array.isArray(prompts) &&
        prompts.some(
          (p) => (p as Record<string, unknown>)?.name === 'test_simple_prompt'
        );
      if (has) {
        const call = { name: 'test_simple_prompt', arguments: {} };
        const enPrompt = await post('prompts/get', call, { meta: 'en' });
        const frPrompt = await post('prompts/get', call, { meta: 'fr' });
        const text = (ex: Exchange) =>
          JSON.stringify(
            (ex.body?.result as Record<string, unknown> | undefined)?.messages
          );
        const enLabel = reported(enPrompt);
        const frLabel = reported(frPrompt);
        if (
          text(enPrompt) !== undefined &&
          text(enPrompt) === text(frPrompt) &&
          includesLanguage(enLabel, 'en') &&
          frLabel !== undefined
        ) {
          push(
            'sep-2792-content-language-reported',
            'UntranslatedPromptLabel',
            'A prompt whose messages stay as in "en" under "fr" reports the language they are in',
            includesLanguage(frLabel, 'en'),
            `prompts/get test_simple_prompt under "fr" returned the messages it labels "en" under "en", but reports ${quote(frLabel)}`,
            [RFC_9110_CONTENT_LANGUAGE],
            { en: enLabel, fr: frLabel }
          );
        }
      }
    }

    // ---- Tool results: structuredContent keys the same in every language ----
    {
      /** Every object key of a value, by path, sorted. */
      const keysOf = (value: unknown, at = ''): string[] =>
        typeof value !== 'object' || value === null
          ? []
          : Array.isArray(value)
            ? value.flatMap((v) => keysOf(v, `${at}[]`))
            : Object.entries(value as Record<string, unknown>)
                .flatMap(([k, v]) => [`${at}.${k}`, ...keysOf(v, `${at}.${k}`)])
                .sort();
      const byTool = new Map<string, Array<{ what: string; keys: string }>>();
      for (const { what, ex, tool } of exchanges) {
        const content = (ex.body?.result as Record<string, unknown> | undefined)
          ?.structuredContent;
        if (tool === undefined || content === undefined) continue;
        const list = byTool.get(tool) ?? [];
        list.push({ what, keys: JSON.stringify(keysOf(content)) });
        byTool.set(tool, list);
      }
      const compared = [...byTool].filter(([, list]) => list.length > 1);
      if (compared.length > 0) {
        const differing = compared.filter(([, list]) =>
          list.some((r) => r.keys !== list[0].keys)
        );
        push(
          'sep-2792-identifiers-stable',
          'ResultKeysStable',
          "The keys of a tool result's structuredContent are the same in every language",
          differing.length === 0,
          differing
            .map(
              ([tool, list]) =>
                `${tool}: ${list.map((r) => `${r.what} has keys ${r.keys}`).join('; ')}`
            )
            .join(' | '),
          [],
          { tools: compared.map(([tool]) => tool) }
        );
      }
    }

    // ---- JSON responses: every contentLanguage of the run mirrored ----
    // The per-language checks above look at "fr" and "de"; here every JSON
    // answer of the run that reports a language (regional, weighted and
    // wildcard preferences, errors) must carry it in Content-Language.
    {
      const reporting = exchanges.filter(
        ({ ex }) =>
          !isEventStream(ex) &&
          ex.body !== undefined &&
          messageLanguage(ex.body as unknown as Record<string, unknown>) !==
            undefined
      );
      const unmirrored = reporting.filter(
        ({ ex }) =>
          fieldValues(ex, 'content-language').join(', ') !==
          messageLanguage(ex.body as unknown as Record<string, unknown>)
      );
      push(
        'sep-2792-content-language-mirrored',
        'ContentLanguageMirroredThroughout',
        'Every JSON response of the run that carries contentLanguage mirrors it into Content-Language',
        unmirrored.length === 0,
        unmirrored
          .slice(0, 5)
          .map(
            ({ what, ex }) =>
              `${what}: Content-Language ${quote(fieldValues(ex, 'content-language').join(', ') || undefined)}, contentLanguage ${quote(messageLanguage(ex.body as unknown as Record<string, unknown>))}`
          )
          .join('; ') +
          (unmirrored.length > 5 ? ` (${unmirrored.length} in all)` : ''),
        [RFC_9110_CONTENT_LANGUAGE],
        { responses: reporting.length, unmirrored: unmirrored.length }
      );
    }

    // ---- Event streams: a Content-Language sent agrees with every message ----
    // Every answer of the run that was an event stream. A stream may omit the
    // header; one that sends it must agree with each contentLanguage on it.
    {
      const streams = exchanges.filter(({ ex }) => isEventStream(ex));
      const declared = streams.filter(
        ({ ex }) => fieldValues(ex, 'content-language').length > 0
      );
      let broken = '';
      for (const { what, ex } of declared) {
        const header = fieldValues(ex, 'content-language').join(', ');
        for (const message of ex.messages) {
          const got = messageLanguage(message);
          if (got !== undefined && got !== header) {
            broken ||= `${what}: the stream's Content-Language is ${quote(header)} but a message on it reports contentLanguage ${quote(got)}`;
          }
        }
      }
      push(
        'sep-2792-sse-content-language-agrees',
        'SseContentLanguageAgrees',
        'Every contentLanguage on an event stream that sends Content-Language agrees with it (a stream may omit the header)',
        broken === '',
        broken,
        [RFC_9110_CONTENT_LANGUAGE],
        {
          eventStreams: streams.map(({ what }) => what),
          withContentLanguage: declared.map(({ what, ex }) => ({
            request: what,
            contentLanguage: fieldValues(ex, 'content-language')
          }))
        }
      );
    }

    agent.destroy();
    return checks;
  }
}
