// A SEP-2792 server on the official TypeScript MCP SDK (`@modelcontextprotocol/sdk`
// 1.32.2, its high-level `McpServer` API), kept as a test fixture: the
// conformance suite (`mcp-lang conformance`) is run against it over stdio and
// over Streamable HTTP, as it is run against servers nobody here wrote.
//
// Usage: node sep2792_server.mjs stdio
//        node sep2792_server.mjs http [PORT]
//
// The SDK comes from the `node_modules` that NODE_PATH names (the tests install
// `tests/interop/node/package-lock.json` under target/); plain JavaScript, no
// build step. Over HTTP it listens on 127.0.0.1 (PORT 0, the default, or the
// SEP2792_PORT variable, picks a free port) and, once it accepts connections,
// prints one line `listening http://127.0.0.1:PORT/mcp` on stdout. The SDK
// speaks protocols up to 2025-11-25, through the `initialize` handshake; over
// HTTP each session (`Mcp-Session-Id`) has its own `McpServer`, since an
// elicitation's answer must come back to the server that asked.
//
// What it does for SEP-2792:
//
// - Negotiates every request's own `io.modelcontextprotocol/acceptLanguage`
//   (sep2792_lang.mjs: strict grammar, RFC 4647 matching with weights, `*`
//   and q=0, case-insensitive; a malformed value counts as absent, an
//   unmatched one gets the default) among en (the default), fr, de and ja;
//   nothing is kept between requests.
// - Localizes the display fields: `serverInfo.title` (at `initialize`), tool
//   and tool annotation titles, prompt and resource titles, the elicitation
//   message and property labels, progress messages; and, taking the SEP's
//   MAY, the count tool's result text, one tool's error result, the welcome
//   note's text and the JSON-RPC errors of prompts/get and resources/read.
//   Names, URIs, keys and codes never change. `McpServer` builds the lists
//   and errors itself, so the server wraps its handlers and localizes their
//   answers per request.
// - Reports `io.modelcontextprotocol/contentLanguage` in `result._meta`,
//   `error.data._meta` (localized errors), `params._meta` of progress
//   notifications and of elicitation requests. Content that stays English
//   (tool output, prompt text, the SDK's own error results) reports `en`; the
//   charter tool reports the edition its explicit `language` argument chose.
// - Over Streamable HTTP, a layer in front of the SDK's web-standard
//   transport checks that every `Accept-Language` field line, trimmed and
//   joined with ", ", equals the `_meta` value byte for byte (before any
//   grammar check; a mismatch is HTTP 400 with JSON-RPC error -32020 echoing
//   the id), mirrors `contentLanguage` into `Content-Language` on JSON
//   responses, adds `Vary: Accept-Language` to every response and
//   `Cache-Control: private` when `_meta` carried a preference but no
//   `Accept-Language` came. The SDK answers every request with an event
//   stream, whose headers go out before its messages are known: those carry
//   no `Content-Language`, which the SEP allows.
//
// SEP2792_FAULT=NAME switches on one deliberate fault (see FAULTS), so the
// test can check that the suite catches it.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ElicitResultSchema, ErrorCode, McpError, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import * as lang from './sep2792_lang.mjs';

const ACCEPT = 'io.modelcontextprotocol/acceptLanguage';
const CONTENT = 'io.modelcontextprotocol/contentLanguage';
const SUPPORTED = ['en', 'fr', 'de', 'ja'];
const DEFAULT = 'en';
const HEADER_MISMATCH = -32020;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

const FAULTS = {
    'ignore-weights': 'matching: q-values are ignored, so the first acceptable range wins',
    'sticky-preference': 'request scope: the first preference the process sees binds every later request',
    'unstamped-notifications': 'reporting: progress notifications and elicitation requests carry no contentLanguage',
    'unreported-error-language': 'reporting: a localized error carries no error.data._meta.contentLanguage',
    'drop-vary': 'HTTP: no Vary: Accept-Language',
    'skip-agreement': 'HTTP: Accept-Language is never compared with _meta',
    'first-line-only': 'HTTP: only the first Accept-Language field line is compared with _meta',
    'public-when-stripped': 'HTTP: no Cache-Control: private when _meta came without Accept-Language'
};
const FAULT = process.env.SEP2792_FAULT || null;

const CATALOG = {
    en: {
        'server-title': 'Field notes',
        'tool-city_forecast': 'City forecast',
        'annotation-city_forecast': 'Forecast lookup (read-only)',
        'tool-read_charter': 'Charter article',
        'annotation-read_charter': 'Official text lookup (read-only)',
        'tool-subscribe_digest': 'Subscribe to the digest',
        'annotation-subscribe_digest': 'Asks for an e-mail address',
        'tool-count': 'Count aloud',
        'annotation-count': 'Counts, reporting progress',
        'elicit-message': 'Which e-mail address should receive the digest?',
        'elicit-email-title': 'E-mail address',
        'elicit-email-description': 'Where the digest is sent',
        'progress-step': 'Counting: {i} of {n}…',
        'count-done': 'Counted to {n}.',
        'prompt-draft_postcard': 'Draft a postcard',
        'resource-welcome': 'Welcome note',
        'welcome-text': 'Welcome! These notes follow your language preference.',
        'error-unknown-prompt': 'Unknown prompt: {name}',
        'error-unknown-resource': 'No resource at {uri}',
        'error-invalid-params': 'Missing or invalid arguments',
        'error-unknown-city': 'No forecast for {city}.',
        'error-no-edition': 'No edition of {article} matches {language}.',
        'error-declined': 'The subscription was cancelled: no e-mail address was given.',
        'error-no-elicitation': 'This client cannot be asked for an e-mail address.'
    },
    fr: {
        'server-title': 'Carnet de terrain',
        'tool-city_forecast': 'Prévisions pour une ville',
        'annotation-city_forecast': 'Consultation des prévisions (lecture seule)',
        'tool-read_charter': 'Article de la charte',
        'annotation-read_charter': 'Consultation de textes officiels (lecture seule)',
        'tool-subscribe_digest': "S'abonner à la lettre d'information",
        'annotation-subscribe_digest': 'Demande une adresse e-mail',
        'tool-count': 'Compter à voix haute',
        'annotation-count': 'Compte, en signalant sa progression',
        'elicit-message': "À quelle adresse e-mail faut-il envoyer la lettre d'information ?",
        'elicit-email-title': 'Adresse e-mail',
        'elicit-email-description': 'Adresse de destination de la lettre',
        'progress-step': 'Décompte : {i} sur {n}…',
        'count-done': 'Compté jusqu’à {n}.',
        'prompt-draft_postcard': 'Rédiger une carte postale',
        'resource-welcome': 'Mot de bienvenue',
        'welcome-text': 'Bienvenue ! Ces notes suivent votre préférence de langue.',
        'error-unknown-prompt': 'Prompt inconnu : {name}',
        'error-unknown-resource': "Aucune ressource à l'adresse {uri}",
        'error-invalid-params': 'Arguments manquants ou invalides',
        'error-unknown-city': 'Aucune prévision pour {city}.',
        'error-no-edition': 'Aucune édition de {article} ne correspond à {language}.',
        'error-declined': "L'abonnement est annulé : aucune adresse e-mail n'a été donnée.",
        'error-no-elicitation': "Ce client ne peut pas demander d'adresse e-mail."
    },
    de: {
        'server-title': 'Feldnotizen',
        'tool-city_forecast': 'Wettervorhersage für eine Stadt',
        'annotation-city_forecast': 'Vorhersage abrufen (nur lesend)',
        'tool-read_charter': 'Artikel der Charta',
        'annotation-read_charter': 'Amtliche Texte abrufen (nur lesend)',
        'tool-subscribe_digest': 'Den Newsletter abonnieren',
        'annotation-subscribe_digest': 'Fragt nach einer E-Mail-Adresse',
        'tool-count': 'Laut zählen',
        'annotation-count': 'Zählt und meldet den Fortschritt',
        'elicit-message': 'An welche E-Mail-Adresse soll der Newsletter gehen?',
        'elicit-email-title': 'E-Mail-Adresse',
        'elicit-email-description': 'Hierhin wird der Newsletter geschickt',
        'progress-step': 'Zähle: {i} von {n} …',
        'count-done': 'Bis {n} gezählt.',
        'prompt-draft_postcard': 'Postkarte entwerfen',
        'resource-welcome': 'Begrüßung',
        'welcome-text': 'Willkommen! Diese Notizen folgen Ihrer Sprachpräferenz.',
        'error-unknown-prompt': 'Unbekannter Prompt: {name}',
        'error-unknown-resource': 'Keine Ressource unter {uri}',
        'error-invalid-params': 'Fehlende oder ungültige Argumente',
        'error-unknown-city': 'Keine Vorhersage für {city}.',
        'error-no-edition': 'Keine Ausgabe von {article} passt zu {language}.',
        'error-declined': 'Das Abonnement wurde abgebrochen: Es wurde keine E-Mail-Adresse angegeben.',
        'error-no-elicitation': 'Dieser Client kann nicht nach einer E-Mail-Adresse fragen.'
    },
    ja: {
        'server-title': 'フィールドノート',
        'tool-city_forecast': '都市の天気予報',
        'annotation-city_forecast': '予報の参照（読み取り専用）',
        'tool-read_charter': '憲章の条文',
        'annotation-read_charter': '公式文書の参照（読み取り専用）',
        'tool-subscribe_digest': 'ダイジェストを購読する',
        'annotation-subscribe_digest': 'メールアドレスを尋ねます',
        'tool-count': '声に出して数える',
        'annotation-count': '進捗を報告しながら数えます',
        'elicit-message': 'ダイジェストの送信先のメールアドレスを入力してください。',
        'elicit-email-title': 'メールアドレス',
        'elicit-email-description': 'ダイジェストの送信先',
        'progress-step': '数えています（{i}/{n}）…',
        'count-done': '{n} まで数えました。',
        'prompt-draft_postcard': '絵はがきの下書き',
        'resource-welcome': 'ようこそ',
        'welcome-text': 'ようこそ。このノートは言語の設定に従います。',
        'error-unknown-prompt': '不明なプロンプト: {name}',
        'error-unknown-resource': '{uri} にリソースはありません',
        'error-invalid-params': '引数がないか不正です',
        'error-unknown-city': '{city} の予報はありません。',
        'error-no-edition': '{article} の {language} 版はありません。',
        'error-declined': 'メールアドレスが入力されなかったため、購読を取り消しました。',
        'error-no-elicitation': 'このクライアントではメールアドレスを尋ねられません。'
    }
};

// Article 1 of the Universal Declaration of Human Rights, in the editions the
// charter tool offers (its explicit `language` argument picks one).
const EDITIONS = {
    en: 'All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.',
    fr: 'Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité.',
    de: 'Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen.',
    ja: 'すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。'
};
const ARTICLE = 'article-1';
const WELCOME_URI = 'notes://welcome';
const CITIES = {
    paris: ['Paris', 18, 'light rain'],
    berlin: ['Berlin', 14, 'overcast'],
    tokyo: ['Tokyo', 22, 'clear']
};

/** The catalog text for `key` in `tag`, falling back to the default. */
function t(tag, key, args = {}) {
    const text = CATALOG[tag]?.[key] ?? CATALOG[DEFAULT][key];
    if (text === undefined) throw new Error(`no catalog entry ${key}`);
    return text.replace(/\{(\w+)\}/g, (_, name) => String(args[name]));
}

let sticky = lang.ABSENT;

/** The tag negotiated for one request, from its own `_meta` only. */
function languageOf(meta) {
    let value = meta !== null && typeof meta === 'object' && Object.hasOwn(meta, ACCEPT) ? meta[ACCEPT] : lang.ABSENT;
    if (FAULT === 'sticky-preference') {
        if (sticky === lang.ABSENT) sticky = value;
        value = sticky;
    }
    if (FAULT === 'ignore-weights' && typeof value === 'string') {
        try {
            value = lang.parse(value).map(([range]) => range).join(', ');
        } catch (e) {
            if (!(e instanceof lang.Malformed)) throw e;
        }
    }
    return lang.negotiate(value === lang.ABSENT ? null : value, SUPPORTED, DEFAULT)[0];
}

/** The `_meta` of a localized result or error. */
const reported = tag => ({ [CONTENT]: tag });

/** The `_meta` of a localized notification or server-to-client request. */
const notificationMeta = tag => (FAULT === 'unstamped-notifications' ? undefined : reported(tag));

/** A JSON-RPC error whose message is in `tag`, reported in `error.data._meta`. */
function localizedError(tag, code, key, args) {
    const data = FAULT === 'unreported-error-language' ? undefined : { _meta: reported(tag) };
    return new McpError(code, t(tag, key, args), data);
}

/** A tool result of one text, reporting the language of that text. */
const textResult = (text, tag, extra = {}) => ({ content: [{ type: 'text', text }], ...extra, _meta: reported(tag) });

/**
 * Replaces the handler `McpServer` installed for `method` by one that runs
 * it and lets `localize(result, tag, request)` rewrite its answer (or
 * `localizeError(error, tag, request)` its error) in the request's language.
 * `McpServer` answers lists, prompts/get and resources/read itself from what
 * was registered, with no hook per request; its low-level `Server` keeps the
 * handlers in a map, where the wrapper goes.
 */
function localizeHandler(mcp, method, localize, localizeError = error => error) {
    const handlers = mcp.server._requestHandlers;
    const inner = handlers.get(method);
    if (inner === undefined) throw new Error(`McpServer has no handler for ${method}`);
    handlers.set(method, async (request, extra) => {
        const tag = languageOf(request.params?._meta);
        let result;
        try {
            result = await inner(request, extra);
        } catch (error) {
            throw localizeError(error, tag, request);
        }
        return localize(result, tag, request);
    });
}

function makeServer() {
    const mcp = new McpServer(
        { name: 'sep2792-typescript-notes', version: '1.0.0', title: t(DEFAULT, 'server-title') },
        { capabilities: { tools: {}, prompts: {}, resources: {} } }
    );

    mcp.registerTool(
        'city_forecast',
        {
            title: t(DEFAULT, 'tool-city_forecast'),
            description: "Today's forecast for a city (fixed sample data).",
            inputSchema: { city: z.string().min(1).describe('City name') },
            annotations: { title: t(DEFAULT, 'annotation-city_forecast'), readOnlyHint: true }
        },
        async ({ city }, extra) => {
            const tag = languageOf(extra._meta);
            const found = CITIES[city.toLowerCase()];
            if (found === undefined) {
                // A tool error the user reads: localized, and reported as such.
                return textResult(t(tag, 'error-unknown-city', { city }), tag, { isError: true });
            }
            const [name, celsius, condition] = found;
            // Tool output is model-facing content: English, reported as such.
            return textResult(`${name}: ${celsius} °C, ${condition}`, DEFAULT, {
                structuredContent: { city: name, temperatureC: celsius, condition }
            });
        }
    );

    mcp.registerTool(
        'read_charter',
        {
            title: t(DEFAULT, 'tool-read_charter'),
            description:
                'Article 1 of the charter, in the edition chosen by `language` (a BCP 47 tag); without it, in the negotiated language.',
            inputSchema: {
                article: z.enum([ARTICLE]),
                language: z.string().optional().describe('Edition, e.g. de')
            },
            annotations: { title: t(DEFAULT, 'annotation-read_charter'), readOnlyHint: true }
        },
        async ({ article, language }, extra) => {
            const tag = languageOf(extra._meta);
            // The explicit argument decides the edition; without it, the negotiated language does.
            const requested = language || tag;
            let edition = null;
            try {
                edition = lang.lookup(requested, Object.keys(EDITIONS), null);
            } catch (e) {
                if (!(e instanceof lang.Malformed)) throw e;
            }
            if (edition === null) {
                return textResult(t(tag, 'error-no-edition', { article, language: requested }), tag, { isError: true });
            }
            return textResult(EDITIONS[edition], edition, { structuredContent: { article, edition } });
        }
    );

    mcp.registerTool(
        'subscribe_digest',
        {
            title: t(DEFAULT, 'tool-subscribe_digest'),
            description: 'Asks the user for an e-mail address (elicitation), then subscribes it.',
            annotations: { title: t(DEFAULT, 'annotation-subscribe_digest'), readOnlyHint: false }
        },
        async extra => {
            const tag = languageOf(extra._meta);
            if (mcp.server.getClientCapabilities()?.elicitation === undefined) {
                return textResult(t(tag, 'error-no-elicitation'), tag, { isError: true });
            }
            const params = {
                mode: 'form',
                message: t(tag, 'elicit-message'),
                requestedSchema: {
                    type: 'object',
                    properties: {
                        email: {
                            type: 'string',
                            format: 'email',
                            title: t(tag, 'elicit-email-title'),
                            description: t(tag, 'elicit-email-description')
                        }
                    },
                    required: ['email']
                }
            };
            const meta = notificationMeta(tag);
            if (meta !== undefined) params._meta = meta;
            // On this request's own stream (the SDK relates it to the call).
            const answer = await extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema);
            const email = answer.content?.email;
            if (answer.action === 'accept' && typeof email === 'string') {
                return textResult(`Subscribed ${email} to the digest.`, DEFAULT, { structuredContent: { email } });
            }
            return textResult(t(tag, 'error-declined'), tag, { isError: true });
        }
    );

    mcp.registerTool(
        'count',
        {
            title: t(DEFAULT, 'tool-count'),
            description: 'Counts from 1 to n, reporting each step as progress when given a progressToken.',
            inputSchema: { n: z.number().int().min(1).max(10).describe('How far to count (1 to 10)') },
            annotations: { title: t(DEFAULT, 'annotation-count'), readOnlyHint: true }
        },
        async ({ n }, extra) => {
            const tag = languageOf(extra._meta);
            const token = extra._meta?.progressToken;
            if (token !== undefined) {
                for (let i = 1; i <= n; i += 1) {
                    const params = { progressToken: token, progress: i, total: n, message: t(tag, 'progress-step', { i, n }) };
                    const meta = notificationMeta(tag);
                    if (meta !== undefined) params._meta = meta;
                    await extra.sendNotification({ method: 'notifications/progress', params });
                }
            }
            return textResult(t(tag, 'count-done', { n }), tag, { structuredContent: { counted: n } });
        }
    );

    mcp.registerPrompt(
        'draft_postcard',
        {
            title: t(DEFAULT, 'prompt-draft_postcard'),
            description: 'Drafts a short postcard from a city.',
            argsSchema: { city: z.string().describe('The city the postcard is sent from'), tone: z.string().optional() }
        },
        ({ city, tone }) => ({
            description: `A postcard from ${city}`,
            // Prompt text is model-facing content: English, reported as such.
            messages: [{ role: 'user', content: { type: 'text', text: `Write a ${tone ?? 'cheerful'} postcard from ${city} in three sentences.` } }],
            _meta: reported(DEFAULT)
        })
    );

    mcp.registerResource(
        'welcome',
        WELCOME_URI,
        { title: t(DEFAULT, 'resource-welcome'), description: 'A short welcome note.', mimeType: 'text/plain' },
        (uri, extra) => {
            // Content a server MAY translate; this one does, and reports it.
            const tag = languageOf(extra._meta);
            return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: t(tag, 'welcome-text') }], _meta: reported(tag) };
        }
    );

    // What McpServer answers itself, localized per request.
    localizeHandler(mcp, 'initialize', (result, tag) => ({
        ...result,
        serverInfo: { ...result.serverInfo, title: t(tag, 'server-title') },
        _meta: { ...result._meta, ...reported(tag) }
    }));
    localizeHandler(mcp, 'tools/list', (result, tag) => ({
        ...result,
        tools: result.tools.map(tool => ({
            ...tool,
            title: t(tag, `tool-${tool.name}`),
            annotations: { ...tool.annotations, title: t(tag, `annotation-${tool.name}`) }
        })),
        _meta: reported(tag)
    }));
    // McpServer turns an unknown tool or invalid arguments into an English
    // `isError` result of its own: reported as English.
    localizeHandler(mcp, 'tools/call', result =>
        result._meta?.[CONTENT] === undefined ? { ...result, _meta: { ...result._meta, ...reported(DEFAULT) } } : result
    );
    localizeHandler(mcp, 'prompts/list', (result, tag) => ({
        ...result,
        prompts: result.prompts.map(prompt => ({ ...prompt, title: t(tag, `prompt-${prompt.name}`) })),
        _meta: reported(tag)
    }));
    localizeHandler(mcp, 'prompts/get', result => result, (error, tag, request) => {
        if (!(error instanceof McpError) || error.code !== ErrorCode.InvalidParams) return error;
        const name = String(request.params?.name);
        return name === 'draft_postcard'
            ? localizedError(tag, error.code, 'error-invalid-params')
            : localizedError(tag, error.code, 'error-unknown-prompt', { name });
    });
    localizeHandler(mcp, 'resources/list', (result, tag) => ({
        ...result,
        resources: result.resources.map(resource => ({ ...resource, title: t(tag, `resource-${resource.name}`) })),
        _meta: reported(tag)
    }));
    localizeHandler(mcp, 'resources/templates/list', (result, tag) => ({ ...result, _meta: reported(tag) }));
    localizeHandler(mcp, 'resources/read', result => result, (error, tag, request) => {
        if (!(error instanceof McpError) || error.code !== ErrorCode.ResourceNotFound) return error;
        return localizedError(tag, error.code, 'error-unknown-resource', { uri: String(request.params?.uri) });
    });
    return mcp;
}

// Streamable HTTP ---------------------------------------------------------

/** The `Accept-Language` field lines of a request, as bytes, in received order. */
function acceptLanguageLines(req) {
    const lines = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        if (req.rawHeaders[i].toLowerCase() === 'accept-language') lines.push(Buffer.from(req.rawHeaders[i + 1], 'latin1'));
    }
    return FAULT === 'first-line-only' ? lines.slice(0, 1) : lines;
}

/** The request's `_meta` preference (or ABSENT) and id (or null), from its body. */
function preferenceOf(body) {
    let message;
    try {
        message = JSON.parse(body.toString('utf8'));
    } catch {
        return [lang.ABSENT, null];
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return [lang.ABSENT, null];
    const id = typeof message.id === 'string' || Number.isInteger(message.id) ? message.id : null;
    const meta = message.params !== null && typeof message.params === 'object' ? message.params._meta : undefined;
    const value = meta !== null && typeof meta === 'object' && Object.hasOwn(meta, ACCEPT) ? meta[ACCEPT] : lang.ABSENT;
    return [value, id];
}

/** A JSON response's `contentLanguage` (result or error data), or undefined. */
function contentLanguageOf(text) {
    try {
        const message = JSON.parse(text);
        for (const holder of [message?.result, message?.error?.data]) {
            const meta = holder?._meta;
            if (meta !== null && typeof meta === 'object' && Object.hasOwn(meta, CONTENT)) return meta[CONTENT];
        }
    } catch {
        // not one JSON message: nothing to mirror
    }
    return undefined;
}

/** Whether `value` can be one HTTP field value as it is. */
const sendable = value => typeof value === 'string' && /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/.test(value);

/** `Vary: Accept-Language` merged into any Vary the headers have. */
function withVary(headers) {
    const members = (headers.get('vary') ?? '').split(',').map(m => m.trim()).filter(Boolean);
    if (!members.some(m => ['accept-language', '*'].includes(m.toLowerCase()))) {
        headers.set('vary', [...members, 'Accept-Language'].join(', '));
    }
}

/** `Cache-Control: private`, dropping what would let a shared cache store it. */
function withPrivate(headers) {
    const directives = (headers.get('cache-control') ?? '').split(',').map(d => d.trim()).filter(Boolean);
    const names = directives.map(d => d.split('=')[0].trim().toLowerCase());
    if (names.includes('no-store') || directives.some(d => d.toLowerCase() === 'private')) return;
    // A field-qualified private="…" lets a shared cache store the rest: dropped too.
    const kept = directives.filter((_, i) => !['public', 's-maxage', 'private'].includes(names[i]));
    headers.set('cache-control', [...kept, 'private'].join(', '));
}

/** Writes a web `Response` to a Node response, streaming its body. */
async function writeResponse(res, response) {
    const headers = {};
    response.headers.forEach((value, name) => {
        headers[name] = value;
    });
    res.writeHead(response.status, headers);
    if (response.body === null) {
        res.end();
        return;
    }
    const reader = response.body.getReader();
    res.on('close', () => reader.cancel().catch(() => {}));
    try {
        for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            res.write(value);
        }
    } catch {
        // the client went away
    }
    res.end();
}

const jsonResponse = (status, payload, headers = {}) =>
    new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The session's transport for a request, or an error response. */
async function transportFor(sessions, req, body) {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
        const session = sessions.get(id);
        return session ?? jsonResponse(404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    }
    let message;
    try {
        message = JSON.parse(body.toString('utf8'));
    } catch {
        message = null;
    }
    if (req.method === 'POST' && message !== null && isInitializeRequest(message)) {
        const mcp = makeServer();
        const transport = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: sid => sessions.set(sid, transport),
            onsessionclosed: sid => sessions.delete(sid)
        });
        transport.onclose = () => {
            if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
        };
        await mcp.connect(transport);
        return transport;
    }
    return jsonResponse(400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: no valid session ID' } });
}

async function handle(sessions, req, res, port) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
            const response = jsonResponse(413, {
                jsonrpc: '2.0',
                id: null,
                error: { code: ErrorCode.InvalidRequest, message: `request body larger than ${MAX_BODY_BYTES} bytes` }
            });
            withVary(response.headers);
            await writeResponse(res, response);
            return;
        }
        chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    const lines = acceptLanguageLines(req);
    let meta = lang.ABSENT;
    let response;
    if (req.method === 'POST') {
        let id;
        [meta, id] = preferenceOf(body);
        // Agreement comes first: before any grammar check, byte for byte.
        if (FAULT !== 'skip-agreement' && lang.agree(meta, lines) === 'mismatch') {
            response = jsonResponse(
                400,
                {
                    jsonrpc: '2.0',
                    id,
                    error: {
                        code: HEADER_MISMATCH,
                        message: 'HeaderMismatch: Accept-Language does not agree with _meta',
                        data: {
                            header: 'Accept-Language',
                            value: lang.joinedField(lines).toString('latin1'),
                            lines: lines.length,
                            metaKey: ACCEPT,
                            meta: typeof meta === 'string' ? meta : null
                        }
                    }
                },
                { 'cache-control': 'no-store' }
            );
        }
    }
    if (response === undefined) {
        const target = await transportFor(sessions, req, body);
        if (target instanceof Response) {
            response = target;
        } else {
            const headers = new Headers();
            for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
            const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
                method: req.method,
                headers,
                body: req.method === 'POST' || req.method === 'DELETE' ? body : undefined
            });
            response = await target.handleRequest(request);
        }
    }
    const headers = new Headers(response.headers);
    if (FAULT !== 'drop-vary') withVary(headers);
    if (typeof meta === 'string' && lines.length === 0 && FAULT !== 'public-when-stripped') withPrivate(headers);
    headers.delete('content-language');
    const media = (headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (media === 'application/json' && response.body !== null) {
        const text = await response.text();
        const value = contentLanguageOf(text);
        if (sendable(value)) headers.set('content-language', value);
        headers.delete('content-length');
        await writeResponse(res, new Response(text, { status: response.status, headers }));
    } else {
        await writeResponse(res, new Response(response.body, { status: response.status, headers }));
    }
}

async function serveHttp(port) {
    const sessions = new Map();
    const server = createServer((req, res) => {
        handle(sessions, req, res, server.address().port).catch(error => {
            process.stderr.write(`request failed: ${error?.stack ?? error}\n`);
            if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain', vary: 'Accept-Language' });
            res.end();
        });
    });
    server.listen(port, '127.0.0.1', () => {
        process.stdout.write(`listening http://127.0.0.1:${server.address().port}/mcp\n`);
    });
}

async function serveStdio() {
    await makeServer().connect(new StdioServerTransport());
}

function main() {
    if (FAULT !== null && !Object.hasOwn(FAULTS, FAULT)) {
        process.stderr.write(`SEP2792_FAULT=${JSON.stringify(FAULT)} is not one of: ${Object.keys(FAULTS).join(', ')}\n`);
        process.exit(2);
    }
    const [mode, port] = process.argv.slice(2);
    if (mode === 'stdio') {
        serveStdio();
    } else if (mode === 'http') {
        serveHttp(Number(port ?? process.env.SEP2792_PORT ?? 0));
    } else {
        process.stderr.write('usage: sep2792_server.mjs stdio | sep2792_server.mjs http [PORT]\n');
        process.exit(2);
    }
}

main();
