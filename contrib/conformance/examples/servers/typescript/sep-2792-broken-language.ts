#!/usr/bin/env node

/**
 * SEP-2792 Negative Test Server
 *
 * Speaks the stateless wire protocol (SEP-2575) and localizes tools/list
 * titles, but breaks the SEP's rules on purpose:
 *
 * - takes the first listed language range, ignoring weights and `q=0`;
 * - reads a malformed value's language anyway ("de;q=2" selects de);
 * - answers an unmatched preference with an error instead of its default;
 * - remembers the last preference and reuses it when a request omits it;
 * - compares Accept-Language with `_meta` after trimming and case-folding,
 *   and reads only the first Accept-Language field line;
 * - sends neither Content-Language nor Vary, and never marks a response private;
 * - caches tools/list answers by the Accept-Language header, which an
 *   intermediary may strip, rather than by the `_meta` preference;
 * - answers test_localized_error with its language in a string error.data
 *   and a code that changes with the language;
 * - lets the preference, not the `language` argument, choose the language of
 *   test_explicit_language;
 * - translates test_localized_elicitation's message and one property key,
 *   but not the property labels, and reports no language;
 * - sends test_localized_progress's notifications under a token of its own,
 *   one message translated without reporting its language and one left in
 *   English, on a stream whose Content-Language is always en;
 * - names itself in server/discover with the preference's language, and
 *   translates the keys of test_explicit_language's structuredContent;
 * - answers the retry of test_localized_elicitation in the language of the
 *   call it retries, not the retry's own;
 * - labels test_simple_prompt, whose text it never translates, with the
 *   preference's language.
 *
 * The sep-2792-language scenario must emit FAILURE (WARNING for a SHOULD) for
 * each of these.
 */

import express from 'express';

const app = express();
app.use(express.json());

const TITLES: Record<string, string> = {
  en: 'Simple text',
  fr: 'Texte simple',
  de: 'Einfacher Text'
};

// Deliberately process-wide: the preference outlives the request.
let remembered: string | undefined;
// Deliberately process-wide: the language of the last elicitation call,
// which its retry reuses.
let elicitedIn = 'en';

// Deliberately keyed by the Accept-Language header, not the `_meta` value:
// requests whose header was stripped share one entry.
const cache = new Map<string, Record<string, unknown>>();

const ERRORS: Record<string, string> = {
  en: 'The tool test_localized_error always fails, on purpose.',
  fr: "L'outil test_localized_error échoue toujours, volontairement.",
  de: 'Das Werkzeug test_localized_error schlägt immer fehl, mit Absicht.'
};
const DOCUMENTS: Record<string, string> = {
  en: 'All human beings are born free and equal in dignity and rights.',
  fr: 'Tous les êtres humains naissent libres et égaux en dignité et en droits.',
  de: 'Alle Menschen sind frei und gleich an Würde und Rechten geboren.'
};
const ELICITATIONS: Record<string, { message: string; key: string }> = {
  en: { message: 'Please enter your e-mail address.', key: 'email' },
  fr: { message: 'Veuillez saisir votre adresse e-mail.', key: 'courriel' },
  de: { message: 'Bitte geben Sie Ihre E-Mail-Adresse ein.', key: 'e_mail' }
};
const PROGRESS: Record<string, string> = {
  en: 'Collecting data…',
  fr: 'Collecte des données…',
  de: 'Daten werden gesammelt…'
};

app.post('/mcp', (req, res) => {
  const body = req.body || {};
  const id = body.id ?? null;
  const meta = body.params?._meta ?? {};
  const value = meta['io.modelcontextprotocol/acceptLanguage'];

  if (typeof value === 'string') {
    // Deliberately wrong: normalized comparison, first field line only.
    const first = req.headersDistinct['accept-language']?.[0];
    if (
      first !== undefined &&
      first.trim().toLowerCase() !== value.trim().toLowerCase()
    ) {
      return res.status(400).json({
        jsonrpc: '2.0',
        id,
        error: { code: -32020, message: 'Mismatched Accept-Language header' }
      });
    }
    remembered = value;
  }

  // Deliberately wrong: the first range's primary subtag, whatever its weight.
  const language = remembered
    ?.split(',')[0]
    .split(/[;-]/)[0]
    .trim()
    .toLowerCase();
  const used = language !== undefined && language in TITLES ? language : 'en';

  switch (body.method) {
    case 'server/discover':
      return res.json({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {} },
          ttlMs: 0,
          cacheScope: 'private',
          _meta: {
            // Deliberately wrong: the name, an identifier, translated.
            'io.modelcontextprotocol/serverInfo': {
              name: `sep-2792-broken-language-${used}`,
              version: '1.0.0'
            }
          }
        }
      });
    case 'tools/list': {
      const key = req.headers['accept-language'] ?? '';
      const cached = typeof value === 'string' ? cache.get(key) : undefined;
      if (cached !== undefined) return res.json({ ...cached, id });
      if (language !== undefined && !(language in TITLES)) {
        return res.json({
          jsonrpc: '2.0',
          id,
          error: { code: -32602, message: `Unsupported language ${language}` }
        });
      }
      const answer = {
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          ttlMs: 300000,
          cacheScope: 'public',
          tools: [
            {
              name: 'test_simple_text',
              title: TITLES[used],
              description: 'Tests simple text content response',
              inputSchema: { type: 'object', properties: {} }
            }
          ],
          ...(language !== undefined
            ? {
                _meta: { 'io.modelcontextprotocol/contentLanguage': used }
              }
            : {})
        }
      };
      if (typeof value === 'string') cache.set(key, answer);
      return res.json(answer);
    }
    case 'tools/call':
      return callTool(req, res, id, used);
    case 'prompts/list':
      return res.json({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          prompts: [{ name: 'test_simple_prompt' }]
        }
      });
    case 'prompts/get':
      // Deliberately wrong: English text labelled with the preference's language.
      return res.json({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          messages: [
            {
              role: 'user',
              content: { type: 'text', text: 'This is a simple prompt.' }
            }
          ],
          _meta: { 'io.modelcontextprotocol/contentLanguage': used }
        }
      });
    default:
      return res.status(404).json({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: 'Method not found' }
      });
  }
});

function callTool(
  req: express.Request,
  res: express.Response,
  id: unknown,
  used: string
) {
  const params = req.body.params ?? {};
  switch (params.name) {
    case 'test_localized_error':
      // Deliberately wrong: error.data a string, the code by language.
      return res.json({
        jsonrpc: '2.0',
        id,
        error: {
          code: used === 'en' ? -32603 : -32000,
          message: ERRORS[used],
          data: used
        }
      });
    case 'test_explicit_language':
      // Deliberately wrong: the preference chooses, not the argument.
      return res.json({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          content: [{ type: 'text', text: DOCUMENTS[used] }],
          // Deliberately wrong: the keys translated.
          structuredContent: { [`document_${used}`]: DOCUMENTS[used] },
          _meta: { 'io.modelcontextprotocol/contentLanguage': used }
        }
      });
    case 'test_localized_elicitation': {
      if (params.inputResponses !== undefined) {
        // Deliberately wrong: the retry answered in the first call's language.
        return res.json({
          jsonrpc: '2.0',
          id,
          result: {
            resultType: 'complete',
            content: [{ type: 'text', text: ELICITATIONS[elicitedIn].message }],
            isError: true,
            _meta: { 'io.modelcontextprotocol/contentLanguage': elicitedIn }
          }
        });
      }
      elicitedIn = used;
      // Deliberately wrong: the property key translated, its labels not,
      // no language reported.
      const { message, key } = ELICITATIONS[used];
      return res.json({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'input_required',
          inputRequests: {
            contact: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message,
                requestedSchema: {
                  type: 'object',
                  properties: {
                    name: { type: 'string', title: 'Your name' },
                    [key]: {
                      type: 'string',
                      format: 'email',
                      title: 'E-mail address'
                    }
                  },
                  required: ['name', key]
                }
              }
            }
          }
        }
      });
    }
    case 'test_localized_progress': {
      // Deliberately wrong: a token of its own, a translated message without
      // its language, an English one, and Content-Language en on the stream.
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Content-Language': 'en'
      });
      const write = (msg: unknown) =>
        res.write(`data: ${JSON.stringify(msg)}\n\n`);
      for (const [progress, message] of [
        [1, PROGRESS[used]],
        [2, 'Report ready.']
      ] as const) {
        write({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'progress-1', progress, total: 2, message }
        });
      }
      write({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          content: [{ type: 'text', text: 'Report ready.' }],
          _meta: { 'io.modelcontextprotocol/contentLanguage': used }
        }
      });
      return res.end();
    }
    default:
      return res.json({
        jsonrpc: '2.0',
        id,
        error: { code: -32602, message: `Unknown tool: ${params.name}` }
      });
  }
}

const PORT = parseInt(process.env.PORT || '3008', 10);
app.listen(PORT, () => {
  console.log(
    `SEP-2792 negative test server running on http://localhost:${PORT}/mcp`
  );
});
