/**
 * Per-request user language preference (SEP-2792) test scenario for MCP
 * clients.
 *
 * The scenario's server is the one the client under test talks to. It hands
 * the client a sequence of user preferences (MCP_CONFORMANCE_CONTEXT), serves
 * localized, long-cacheable `tools/list` answers, and checks on the wire what
 * the SEP asks of clients: the preference in `params._meta` on every request,
 * a value in the `Accept-Language` grammar, one `Accept-Language` field line
 * agreeing exactly with it, no earlier preference sent after it changed, and
 * no cached answer for one preference used for another.
 *
 * The server is a raw `node:http` server: the checks need every request's
 * field lines as received (`rawHeaders`), which a framework would combine.
 */

import http from 'node:http';
import type { ScenarioContext } from '../../mock-server';
import {
  ConformanceCheck,
  DRAFT_PROTOCOL_VERSION,
  Scenario,
  ScenarioUrls,
  type SpecReference
} from '../../types';
import { untestableCheck } from '../untestable';

const SEP_2792: SpecReference = {
  id: 'SEP-2792',
  url: 'https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2792'
};
const RFC_9110_ACCEPT_LANGUAGE: SpecReference = {
  id: 'RFC-9110-12.5.4',
  url: 'https://www.rfc-editor.org/rfc/rfc9110.html#section-12.5.4'
};
const RFC_9110_FIELD_LINES: SpecReference = {
  id: 'RFC-9110-5.3',
  url: 'https://www.rfc-editor.org/rfc/rfc9110.html#section-5.3'
};

const ACCEPT_LANGUAGE = 'io.modelcontextprotocol/acceptLanguage';
const CONTENT_LANGUAGE = 'io.modelcontextprotocol/contentLanguage';

/**
 * The user's preference at each step, in order; `null` is a step where the
 * user has none. The first two select the same language (`fr`) at this
 * scenario's server, the third has internal whitespace and a region subtag in
 * upper case (which an exact mirror keeps), the fourth withdraws the
 * preference.
 */
export const SEP_2792_CLIENT_PREFERENCES: ReadonlyArray<string | null> = [
  'fr-CA,fr;q=0.9,en;q=0.5',
  'fr',
  'de-DE, en;q=0.5',
  null
];

/** The tool this scenario's `tools/list` offers and the client calls once per step. */
export const SEP_2792_PROBE_TOOL = 'language_probe';

/** How long `tools/list` answers stay fresh (`ttlMs`, `cacheScope: "public"`). */
const TOOLS_TTL_MS = 300000;

const TITLES: Record<string, string> = {
  en: 'Language probe',
  fr: 'Sonde de langue',
  de: 'Sprachsonde'
};
const SUPPORTED = Object.keys(TITLES);
const DEFAULT_LANGUAGE = 'en';

/**
 * The `Accept-Language` field value of RFC 9110 §12.5.4 as a sender writes
 * it: a comma-separated list (§5.6.1, no empty elements; an empty list is
 * allowed) of RFC 4647 language ranges or `*`, each with an optional weight
 * whose qvalue has at most three decimals and is at most 1; no whitespace
 * around the value (§5.5).
 */
const RANGE = '(?:[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\\*)';
const WEIGHT =
  '(?:[ \\t]*;[ \\t]*[qQ]=(?:0(?:\\.[0-9]{0,3})?|1(?:\\.0{0,3})?))';
const ELEMENT = `${RANGE}${WEIGHT}?`;
const ACCEPT_LANGUAGE_VALUE = new RegExp(
  `^(?:${ELEMENT}(?:[ \\t]*,[ \\t]*${ELEMENT})*)?$`
);

/** True when `value` is a well-formed `Accept-Language` field value. */
export function acceptLanguageIsValid(value: string): boolean {
  return ACCEPT_LANGUAGE_VALUE.test(value);
}

/**
 * The language this server answers in: RFC 4647 lookup over the ranges by
 * descending weight (`q=0` excluded, `*` skipped), its default otherwise.
 */
function select(preference: string | undefined): string {
  if (preference === undefined || !acceptLanguageIsValid(preference)) {
    return DEFAULT_LANGUAGE;
  }
  const ranges = preference
    .split(',')
    .map((element, index) => {
      const [range, ...params] = element.split(';').map((p) => p.trim());
      const q = params.find((p) => /^q=/i.test(p));
      return { range, q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => r.range !== '' && r.range !== '*' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { range } of ranges) {
    const subtags = range.toLowerCase().split('-');
    while (subtags.length > 0) {
      const candidate = subtags.join('-');
      if (SUPPORTED.includes(candidate)) return candidate;
      subtags.pop();
    }
  }
  return DEFAULT_LANGUAGE;
}

/** One JSON-RPC request as received. */
interface Received {
  method: string;
  /** `params._meta[acceptLanguage]` as sent; `undefined` when absent. */
  preference: unknown;
  /** Every `Accept-Language` field line, in received order. */
  headerLines: string[];
}

function quote(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

export class Sep2792ClientLanguageScenario implements Scenario {
  name = 'sep-2792-client-language';
  readonly source = { introducedIn: DRAFT_PROTOCOL_VERSION } as const;
  description = `Tests that a client sends the user's language preference (SEP-2792) on every request, in the Accept-Language grammar, mirrored in exactly one agreeing Accept-Language field line, never an earlier one after it changes, and never answers one preference from a cached answer for another.

**Client Implementation Requirements (fixture contract):**

- \`MCP_CONFORMANCE_CONTEXT\` carries \`preferences\`: the user's language preference at each step, in order (\`null\`: the user has none at that step). The user has the first one from the start, so the lifecycle requests (\`server/discover\`, or \`initialize\`: the server serves both) carry it too.
- At each step the client sends \`tools/list\`, then \`tools/call\` for the tool \`${SEP_2792_PROBE_TOOL}\` (no arguments), then moves on to the next preference. Every request carries the current preference as given, verbatim, in \`params._meta["io.modelcontextprotocol/acceptLanguage"]\`, or none at a \`null\` step.
- The server answers \`tools/list\` in the preference's language (\`en\` default, \`fr\`, \`de\`) with \`ttlMs: ${TOOLS_TTL_MS}\` and \`cacheScope: "public"\`, \`contentLanguage\`, \`Content-Language\` and \`Vary: Accept-Language\`. A client may cache the answer, but not use it for another preference: the first two preferences select the same language.

**Checked, per step:**

- The current preference on every request (SHOULD: WARNING), not an earlier one after it changed, none after it was withdrawn.
- Each value sent conforms to the \`Accept-Language\` grammar of RFC 9110 §12.5.4 (MUST).
- On Streamable HTTP, each request carrying a preference has an \`Accept-Language\` field whose value (its field lines joined with \`", "\`) equals the \`_meta\` value exactly (MUST), sent as exactly one field line (MUST).
- After the preference changes, \`tools/list\` reaches the server again (MUST): a cached answer for one preference is never used for another, including one that selects the same language (the cache key holds the \`acceptLanguage\` value).`;

  private server: http.Server | null = null;
  private received: Received[] = [];

  async start(_ctx: ScenarioContext): Promise<ScenarioUrls> {
    this.received = [];
    return new Promise((resolve, reject) => {
      this.server = http.createServer((req, res) => this.handle(req, res));
      this.server.on('error', reject);
      this.server.listen(0, () => {
        const address = this.server!.address();
        if (address && typeof address === 'object') {
          resolve({
            serverUrl: `http://localhost:${address.port}/mcp`,
            context: { preferences: [...SEP_2792_CLIENT_PREFERENCES] }
          });
        } else {
          reject(new Error('Failed to get server address'));
        }
      });
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.method !== 'POST') {
      // No server-initiated stream and no sessions: GET and DELETE are refused.
      res.writeHead(405, { Allow: 'POST' });
      res.end('Method Not Allowed');
      return;
    }
    const headerLines: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i].toLowerCase() === 'accept-language') {
        headerLines.push(req.rawHeaders[i + 1]);
      }
    }
    req.setEncoding('utf8');
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(body);
      } catch (error) {
        this.json(res, 400, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: `Parse error: ${String(error)}` }
        });
        return;
      }
      if (typeof message.method !== 'string' || message.id === undefined) {
        // Notifications and responses: accepted, nothing to answer.
        res.writeHead(202);
        res.end();
        return;
      }
      const params = (message.params ?? {}) as Record<string, unknown>;
      const meta = params._meta as Record<string, unknown> | undefined;
      // JSON has no undefined: undefined is an absent key.
      const preference =
        typeof meta === 'object' && meta !== null
          ? meta[ACCEPT_LANGUAGE]
          : undefined;
      this.received.push({ method: message.method, preference, headerLines });
      this.answer(res, message, params, preference);
    });
  }

  private json(
    res: http.ServerResponse,
    status: number,
    body: object,
    language?: string
  ): void {
    res.writeHead(status, {
      'Content-Type': 'application/json',
      Vary: 'Accept-Language',
      ...(language ? { 'Content-Language': language } : {})
    });
    res.end(JSON.stringify(body));
  }

  private answer(
    res: http.ServerResponse,
    message: Record<string, unknown>,
    params: Record<string, unknown>,
    preference: unknown
  ): void {
    const id = message.id;
    const language =
      typeof preference === 'string' ? select(preference) : undefined;
    const reported = language
      ? { _meta: { [CONTENT_LANGUAGE]: language } }
      : {};
    const result = (value: object) =>
      this.json(
        res,
        200,
        { jsonrpc: '2.0', id, result: { resultType: 'complete', ...value } },
        language
      );
    switch (message.method) {
      case 'server/discover':
        result({
          supportedVersions: [DRAFT_PROTOCOL_VERSION],
          capabilities: { tools: {} },
          ttlMs: 0,
          cacheScope: 'private',
          _meta: {
            ...reported._meta,
            'io.modelcontextprotocol/serverInfo': {
              name: 'sep-2792-client-language-server',
              version: '1.0.0'
            }
          }
        });
        return;
      case 'initialize': {
        const asked = params.protocolVersion;
        result({
          protocolVersion:
            typeof asked === 'string' ? asked : DRAFT_PROTOCOL_VERSION,
          capabilities: { tools: {} },
          serverInfo: {
            name: 'sep-2792-client-language-server',
            version: '1.0.0'
          },
          ...reported
        });
        return;
      }
      case 'tools/list':
        result({
          tools: [
            {
              name: SEP_2792_PROBE_TOOL,
              title: TITLES[language ?? DEFAULT_LANGUAGE],
              description: 'Answers with the language it was called in.',
              inputSchema: { type: 'object', properties: {} }
            }
          ],
          ttlMs: TOOLS_TTL_MS,
          cacheScope: 'public',
          ...reported
        });
        return;
      case 'tools/call':
        result({
          content: [
            { type: 'text', text: TITLES[language ?? DEFAULT_LANGUAGE] }
          ],
          ...reported
        });
        return;
      case 'ping':
        result({});
        return;
      default:
        this.json(res, 404, {
          jsonrpc: '2.0',
          id,
          error: {
            code: -32601,
            message: `Method not found: ${message.method}`
          }
        });
    }
  }

  /**
   * The received requests by step: a step ends with its `tools/call` (never
   * cacheable, so a caching client still sends it); requests after the last
   * expected one belong to the last step.
   */
  private steps(): Received[][] {
    const steps: Received[][] = SEP_2792_CLIENT_PREFERENCES.map(() => []);
    let step = 0;
    for (const request of this.received) {
      steps[step].push(request);
      if (
        request.method === 'tools/call' &&
        step < SEP_2792_CLIENT_PREFERENCES.length - 1
      ) {
        step++;
      }
    }
    return steps;
  }

  getChecks(): ConformanceCheck[] {
    const checks: ConformanceCheck[] = [];
    const steps = this.steps();
    const timestamp = new Date().toISOString();
    const check = (
      id: string,
      name: string,
      description: string,
      failure: 'FAILURE' | 'WARNING',
      problems: string[],
      specReferences: SpecReference[],
      details: Record<string, unknown>
    ) =>
      checks.push({
        id,
        name,
        description,
        status: problems.length === 0 ? 'SUCCESS' : failure,
        timestamp,
        ...(problems.length ? { errorMessage: problems.join('; ') } : {}),
        specReferences: [SEP_2792, ...specReferences],
        details
      });
    const never =
      this.received.length === 0
        ? 'the client sent no request to the scenario server'
        : undefined;

    SEP_2792_CLIENT_PREFERENCES.forEach((current, index) => {
      const n = index + 1;
      const requests = steps[index];
      const shown = current === null ? 'none' : JSON.stringify(current);
      const earlier = SEP_2792_CLIENT_PREFERENCES.slice(0, index);
      const missing =
        never ??
        `the client sent no request at step ${n} (preference ${shown}): it stopped before the step, or did not follow the contract`;
      const sent = requests.filter((r) => r.preference !== undefined);

      // 1. The current preference on every request (SHOULD).
      const meta = {
        id: 'sep-2792-client-meta-every-request',
        name: `ClientMetaEveryRequest_step${n}`,
        description:
          current === null
            ? `No request at step ${n}, after the user withdrew the preference, carries one (an earlier one reused)`
            : `Every request at step ${n} carries the user's current preference (${shown}) in params._meta, never an earlier one`
      };
      if (requests.length === 0) {
        checks.push(
          untestableCheck(
            meta.id,
            meta.name,
            meta.description,
            missing,
            [SEP_2792],
            'WARNING'
          )
        );
      } else {
        const problems = requests.flatMap((r) => {
          if (current === null) {
            if (r.preference === undefined) return [];
            return [
              `${r.method} carries ${quote(r.preference)} after the user withdrew the preference${earlier.includes(r.preference as string) ? ' (an earlier preference reused)' : ''}`
            ];
          }
          if (r.preference === current) return [];
          if (r.preference === undefined) {
            return [`${r.method} carries no preference (expected ${shown})`];
          }
          if (earlier.includes(r.preference as string)) {
            return [
              `${r.method} carries the earlier preference ${quote(r.preference)} after it changed to ${shown}`
            ];
          }
          return [
            `${r.method} carries ${quote(r.preference)}, not the user's preference ${shown} as given`
          ];
        });
        check(meta.id, meta.name, meta.description, 'WARNING', problems, [], {
          step: n,
          preference: current,
          requests: requests.map((r) => ({
            method: r.method,
            preference: r.preference
          }))
        });
      }

      // 2. Each value sent is a well-formed Accept-Language value (MUST).
      const grammar = {
        id: 'sep-2792-client-value-grammar',
        name: `ClientValueGrammar_step${n}`,
        description: `Every acceptLanguage value sent at step ${n} conforms to the Accept-Language grammar of RFC 9110 §12.5.4`
      };
      if (sent.length === 0 && current !== null) {
        checks.push(
          untestableCheck(
            grammar.id,
            grammar.name,
            grammar.description,
            never ??
              `no request at step ${n} carried a preference (the user's is ${shown})`,
            [SEP_2792, RFC_9110_ACCEPT_LANGUAGE]
          )
        );
      } else if (sent.length > 0) {
        const problems = sent
          .filter(
            (r) =>
              typeof r.preference !== 'string' ||
              !acceptLanguageIsValid(r.preference)
          )
          .map(
            (r) =>
              `${r.method} carries ${quote(r.preference)}, which is not ${typeof r.preference === 'string' ? 'an Accept-Language field value' : 'a string'}`
          );
        check(
          grammar.id,
          grammar.name,
          grammar.description,
          'FAILURE',
          problems,
          [RFC_9110_ACCEPT_LANGUAGE],
          { step: n, values: sent.map((r) => r.preference) }
        );
      }

      // 3. One Accept-Language field agreeing exactly with _meta (MUST), on
      //    exactly one field line (MUST).
      const mirror = {
        id: 'sep-2792-client-http-mirror',
        name: `ClientHttpMirror_step${n}`,
        description: `Every request at step ${n} that carries acceptLanguage has an Accept-Language field whose value agrees exactly with it`
      };
      const single = {
        id: 'sep-2792-single-field-line',
        name: `ClientAcceptLanguageSingleLine_step${n}`,
        description: `Every request at step ${n} that carries acceptLanguage sends Accept-Language as exactly one field line`
      };
      if (sent.length === 0 && current !== null) {
        const reason =
          never ??
          `no request at step ${n} carried a preference (the user's is ${shown}), so there was nothing to mirror`;
        for (const c of [mirror, single]) {
          checks.push(
            untestableCheck(c.id, c.name, c.description, reason, [
              SEP_2792,
              RFC_9110_FIELD_LINES
            ])
          );
        }
      } else if (sent.length > 0) {
        const lines = sent.map((r) => ({
          method: r.method,
          preference: r.preference,
          headerLines: r.headerLines
        }));
        check(
          mirror.id,
          mirror.name,
          mirror.description,
          'FAILURE',
          sent
            .filter(
              (r) =>
                r.headerLines.length === 0 ||
                r.headerLines.join(', ') !== r.preference
            )
            .map((r) =>
              r.headerLines.length === 0
                ? `${r.method}: acceptLanguage ${quote(r.preference)} but no Accept-Language field`
                : `${r.method}: Accept-Language ${quote(r.headerLines.join(', '))} does not agree exactly with acceptLanguage ${quote(r.preference)}`
            ),
          [RFC_9110_FIELD_LINES],
          { step: n, requests: lines }
        );
        const mirrored = sent.filter((r) => r.headerLines.length > 0);
        if (mirrored.length === 0) {
          checks.push(
            untestableCheck(
              single.id,
              single.name,
              single.description,
              `no request at step ${n} that carried a preference sent Accept-Language`,
              [SEP_2792, RFC_9110_FIELD_LINES]
            )
          );
        } else {
          check(
            single.id,
            single.name,
            single.description,
            'FAILURE',
            mirrored
              .filter((r) => r.headerLines.length !== 1)
              .map(
                (r) =>
                  `${r.method}: Accept-Language sent on ${r.headerLines.length} field lines ${quote(r.headerLines)}`
              ),
            [RFC_9110_FIELD_LINES],
            { step: n, requests: lines }
          );
        }
      }

      // 4. After the preference changed, tools/list reaches the server again
      //    (MUST): no cached answer for one preference used for another.
      if (index > 0) {
        const previous = SEP_2792_CLIENT_PREFERENCES[index - 1];
        const listed = requests.some((r) => r.method === 'tools/list');
        const sameLanguage =
          current !== null &&
          previous !== null &&
          select(current) === select(previous);
        const problem = listed
          ? []
          : [
              never ??
                `no tools/list reached the server at step ${n} (preference ${shown}) after the answer for ${previous === null ? 'no preference' : JSON.stringify(previous)}, fresh for ${TOOLS_TTL_MS} ms with cacheScope "public": a cached answer for another preference was used, or the client did not list tools as the contract asks`
            ];
        const details = {
          step: n,
          preference: current,
          previous,
          methods: requests.map((r) => r.method)
        };
        check(
          'sep-2792-cache-no-cross-language',
          `ClientCacheNoCrossPreference_step${n}`,
          `At step ${n} tools/list is not answered from a cached answer for the previous preference`,
          'FAILURE',
          problem,
          [],
          details
        );
        if (sameLanguage) {
          check(
            'sep-2792-cache-key-language',
            `ClientCacheKeyHasPreference_step${n}`,
            `At step ${n} a preference that selects the same language (${select(current)}) as the previous one still gets its own tools/list: the cache key holds the acceptLanguage value`,
            'FAILURE',
            problem,
            [],
            details
          );
        }
      }
    });
    return checks;
  }
}
