#!/usr/bin/env node

/**
 * Broken client for the SEP-2792 client scenario (sep-2792-client-language).
 *
 * It follows the scenario's contract (at each step of the user's
 * preferences: tools/list, then tools/call language_probe) over the
 * stateless lifecycle, but sends the preference wrongly:
 *
 * BUG (step 1): server/discover goes without the preference, and the value
 * is rebuilt in POSIX locale spelling (`fr_CA` for `fr-CA`), which is not an
 * Accept-Language value.
 * BUG (every step): the Accept-Language header is computed once, at step 1,
 * and kept while `_meta` changes; at step 3 it is sent as one field line per
 * language range.
 * BUG (steps 2 to 4): tools/list is answered from a cache keyed by nothing
 * but the method, for the answer's ttlMs, whatever the preference.
 * BUG (step 4): the last preference is kept after the user withdrew it.
 *
 * Per SEP-2792: a client SHOULD include the preference on every request, the
 * value MUST conform to the Accept-Language grammar, a Streamable HTTP client
 * MUST send an Accept-Language field agreeing exactly with it on exactly one
 * field line, and a cached response for one preference MUST NOT be served for
 * a different preference.
 */

import http from 'node:http';
import { ClientConformanceContextSchema } from '../../../src/schemas/context.js';
import { DRAFT_PROTOCOL_VERSION } from '../../../src/types.js';
import { runAsCli } from './helpers/cliRunner';

const ACCEPT_LANGUAGE = 'io.modelcontextprotocol/acceptLanguage';

let nextId = 1;

/** One POST over node:http, which can send a field as several lines. */
function post(
  serverUrl: string,
  method: string,
  params: Record<string, unknown>,
  preference: string | null,
  acceptLanguage: string[]
): Promise<any> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': DRAFT_PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
        ...(preference === null ? {} : { [ACCEPT_LANGUAGE]: preference })
      }
    }
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      serverUrl,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': DRAFT_PROTOCOL_VERSION,
          ...(acceptLanguage.length
            ? { 'Accept-Language': acceptLanguage }
            : {})
        }
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text).result);
          } catch (error) {
            reject(error);
          }
        });
      }
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function runClient(serverUrl: string): Promise<void> {
  const ctx = ClientConformanceContextSchema.parse(
    JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}')
  );
  if (ctx.name !== 'sep-2792-client-language') {
    throw new Error(`Unexpected context for ${ctx.name}`);
  }
  const posix = (value: string | null) => value?.replace(/-/g, '_') ?? null;
  // Computed once, never updated.
  const header = posix(ctx.preferences[0]);
  let cachedTools: any;
  let sent: string | null = null;

  await post(serverUrl, 'server/discover', {}, null, []);
  for (const [index, preference] of ctx.preferences.entries()) {
    const step = index + 1;
    if (step === 1) sent = posix(preference);
    else if (preference !== null) sent = preference;
    const lines =
      step === 3 && sent !== null
        ? sent.split(',').map((range) => range.trim())
        : header === null
          ? []
          : [header];
    if (cachedTools === undefined) {
      cachedTools = await post(serverUrl, 'tools/list', {}, sent, lines);
    }
    const tool = cachedTools?.tools?.[0]?.name ?? 'language_probe';
    await post(
      serverUrl,
      'tools/call',
      { name: tool, arguments: {} },
      sent,
      lines
    );
  }
}

runAsCli(runClient, import.meta.url, 'sep-2792-broken-language <server-url>');
