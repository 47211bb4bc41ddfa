/**
 * Per-request user language preference (SEP-2792) test scenario for MCP servers.
 *
 * Sends `params._meta["io.modelcontextprotocol/acceptLanguage"]` (mirrored in
 * `Accept-Language`) on `tools/list` and checks the language the server
 * selects and reports, the request scope of the preference, the localized
 * titles and stable identifiers, and the Streamable HTTP binding: the
 * `Content-Language` and `Vary` response headers and exact agreement between
 * `Accept-Language` and the `_meta` value.
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
  DRAFT_PROTOCOL_VERSION,
  type SpecReference
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

/** What one raw request returned. */
interface Exchange {
  status: number;
  /** Response field lines, names lower-cased, in received order. */
  lines: Array<[string, string]>;
  body?: JsonRpcResponse;
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

function describe(ex: Exchange): string {
  if (ex.problem) return ex.problem;
  if (ex.body?.error) {
    return `HTTP ${ex.status}, JSON-RPC error ${ex.body.error.code}: ${ex.body.error.message}`;
  }
  return `HTTP ${ex.status}`;
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

**Checked (MUST unless noted):**

- Matching compatible with RFC 9110 §12.5.4 and RFC 4647: supported selection, weights, \`q=0\` exclusion, case-insensitive ranges and the wildcard. Both readings of \`*\` the SEP allows are accepted (RFC 4647 lookup, which skips \`*\`, and filtering / RFC 9110, where \`*\` matches every tag no other range names).
- Default fallback, without an error, for an unmatched preference; a malformed value treated as absent, without an error.
- Request scope: on consecutive requests over one connection, a changed or omitted preference is never served with an earlier one.
- Localized \`tools/list\` titles (SHOULD) with stable tool names and schema property keys, and a reported, well-formed \`contentLanguage\`.
- Streamable HTTP: \`Content-Language\` on one field line equal to \`contentLanguage\`; \`Vary: Accept-Language\`; a missing \`Accept-Language\` tolerated (MAY; reported as INFO when declined); HTTP 400 with \`HeaderMismatch\` (-32020) when \`Accept-Language\` and \`_meta\` disagree, including the SEP's exact-agreement edge cases, and no rejection where they agree.`;

  async run(ctx: RunContext): Promise<ConformanceCheck[]> {
    const checks: ConformanceCheck[] = [];
    const agent = ctx.serverUrl.startsWith('https:')
      ? new https.Agent({ keepAlive: true, maxSockets: 1 })
      : new http.Agent({ keepAlive: true, maxSockets: 1 });
    let nextId = 1;

    const send = (pref: Preference): Promise<Exchange> => {
      const params: Record<string, unknown> =
        pref.meta === undefined
          ? {}
          : { _meta: { [ACCEPT_LANGUAGE]: pref.meta } };
      const headerLines =
        pref.header ?? (pref.meta === undefined ? [] : [pref.meta]);
      const id = nextId++;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/list',
        params: withRequestMeta(params, ctx.specVersion)
      });
      const headers: Record<string, string | string[]> = {
        ...buildStandardHeaders('tools/list', params, {
          specVersion: ctx.specVersion
        }),
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
          { method: 'POST', headers, agent, timeout: 10000 },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
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
                if (contentType.includes('text/event-stream')) {
                  for (const line of text.split(/\r?\n/)) {
                    if (!line.startsWith('data:')) continue;
                    const event = JSON.parse(line.slice(5).trim());
                    if (event && event.id === id) parsed = event;
                  }
                } else if (text) {
                  parsed = JSON.parse(text);
                }
                resolve({ status, lines, body: parsed });
              } catch {
                resolve({
                  status,
                  lines,
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
            problem: `request failed: ${e.message}`
          })
        );
        req.end(body);
      });
    };

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
        tagMatches(got, lang),
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
      id: 'sep-2792-matching' | 'sep-2792-field-interpretation';
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
        oneOf: ['en', 'fr', 'de'],
        why: 'a lone * is satisfied by any language (filtering) or falls to the default (lookup)'
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
        oneOf: ['en', 'fr'],
        noneOf: ['de'],
        why: 'de;q=0 excludes de; * then selects another language (filtering) or the default (lookup)'
      }
    ];
    for (const c of matchingCases) {
      const description = `acceptLanguage "${c.value}": ${c.why}`;
      const refs = [RFC_4647, RFC_9110_ACCEPT_LANGUAGE];
      const ex = await send({ meta: c.value });
      if (!answered(ex, c.id, c.name, description, refs)) continue;
      const got = selected(ex, c.id, c.name, description, refs);
      if (got === undefined) continue;
      const ok =
        c.oneOf.some((r) => tagMatches(got, r)) &&
        !(c.noneOf ?? []).some((r) => tagMatches(got, r));
      push(
        c.id,
        c.name,
        description,
        ok,
        `acceptLanguage "${c.value}" was answered in ${quote(got)}; expected a tag matching ${c.oneOf.join(' or ')}`,
        refs,
        { acceptLanguage: c.value, contentLanguage: got }
      );
    }

    // ---- Default fallback ----
    {
      const value = 'xx-YY, xx;q=0.5';
      const description = `An unmatched preference ("${value}") is answered in the default language without an error`;
      const ex = await send({ meta: value });
      if (
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
            tagMatches(got, 'en'),
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
        !tagMatches(got, 'de') &&
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

    // ---- Request scope: change and omission on consecutive requests over one connection ----
    // Each answer must match the first answer given to the same preference
    // (same reported language, same titles), whatever came before it.
    {
      const titlesOf = (ex: Exchange) =>
        JSON.stringify((toolsOf(ex) ?? []).map((t) => [t.name, t.title]));
      const firstAnswer = new Map<string | undefined, Exchange>([
        ['fr', fr],
        ['de', de],
        [undefined, none]
      ]);
      const distinguishable =
        [fr, de, none].every((ex) => toolsOf(ex) !== undefined) &&
        ((titlesOf(fr) !== titlesOf(de) &&
          titlesOf(fr) !== titlesOf(none) &&
          titlesOf(de) !== titlesOf(none)) ||
          (tagMatches(reported(fr), 'fr') && tagMatches(reported(de), 'de')));
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
            untestableCheck(
              id,
              name,
              description,
              'answers to "fr", "de" and no preference cannot be told apart (neither their tool titles nor a reported contentLanguage differ)',
              SPEC_REFS
            )
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
      const contentType = fieldValues(ex, 'content-type').join(', ');
      const isStream = contentType.includes('text/event-stream');
      const mirror = fieldValues(ex, 'content-language');
      if (isStream) {
        if (mirror.length > 0) {
          push(
            'sep-2792-sse-content-language-agrees',
            `SseContentLanguageAgrees_${lang}`,
            'A Content-Language sent on an event stream agrees with every contentLanguage on it',
            mirror.join(', ') === got,
            `Content-Language ${quote(mirror.join(', '))} on the stream, contentLanguage ${quote(got)} in the response`,
            [RFC_9110_CONTENT_LANGUAGE],
            { contentLanguageHeader: mirror, contentLanguage: got }
          );
        }
      } else if (got !== undefined) {
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
          'sep-2792-content-language-single-line',
          `ContentLanguageSingleLine_${lang}`,
          'Content-Language is sent as exactly one field line',
          mirror.length === 1,
          `Content-Language was sent on ${mirror.length} field lines`,
          [RFC_9110_FIELD_VALUES],
          { contentLanguageHeader: mirror }
        );
      }
      const vary = fieldValues(ex, 'vary')
        .flatMap((v) => v.split(','))
        .map((v) => v.trim().toLowerCase());
      push(
        'sep-2792-vary-accept-language',
        `VaryAcceptLanguage_${lang}`,
        'A response that varies by language carries Vary: Accept-Language',
        vary.includes('accept-language') || vary.includes('*'),
        `Vary was ${vary.length ? quote(fieldValues(ex, 'vary').join(', ')) : '(absent)'}`,
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
        status: tolerated && tagMatches(got, 'de') ? 'SUCCESS' : 'INFO',
        timestamp: new Date().toISOString(),
        errorMessage: tolerated
          ? tagMatches(got, 'de')
            ? undefined
            : `served, but in ${quote(got)} rather than the _meta value "de"`
          : `not tolerated (${describe(ex)}); the SEP allows this, but an intermediary that strips the header will break requests`,
        specReferences: SPEC_REFS,
        details: { status: ex.status, contentLanguage: got }
      });
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
      const ex = await send({ meta: c.meta, header: c.header });
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

    agent.destroy();
    return checks;
  }
}
