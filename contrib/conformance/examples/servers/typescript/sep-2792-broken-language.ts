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
 * - sends neither Content-Language nor Vary.
 *
 * The sep-2792-language scenario must emit FAILURE for each of these.
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
            'io.modelcontextprotocol/serverInfo': {
              name: 'sep-2792-broken-language',
              version: '1.0.0'
            }
          }
        }
      });
    case 'tools/list': {
      // Deliberately wrong: the first range's primary subtag, whatever its weight.
      const language = remembered
        ?.split(',')[0]
        .split(/[;-]/)[0]
        .trim()
        .toLowerCase();
      if (language !== undefined && !(language in TITLES)) {
        return res.json({
          jsonrpc: '2.0',
          id,
          error: { code: -32602, message: `Unsupported language ${language}` }
        });
      }
      const used = language ?? 'en';
      return res.json({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
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
      });
    }
    default:
      return res.status(404).json({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: 'Method not found' }
      });
  }
});

const PORT = parseInt(process.env.PORT || '3008', 10);
app.listen(PORT, () => {
  console.log(
    `SEP-2792 negative test server running on http://localhost:${PORT}/mcp`
  );
});
