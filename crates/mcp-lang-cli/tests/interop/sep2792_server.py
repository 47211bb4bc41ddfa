"""A SEP-2792 server on the official Python MCP SDK (`mcp` 2.3.0, its low-level
`Server` API), kept as a test fixture: the conformance suite (`mcp-lang
conformance`) is run against it over stdio and over Streamable HTTP, as it is
run against servers nobody here wrote.

Usage: sep2792_server.py stdio
       sep2792_server.py http [PORT]

Over HTTP it listens on 127.0.0.1 (PORT 0, the default, picks a free port) and,
once it accepts connections, prints one line `listening http://127.0.0.1:PORT/mcp`
on stdout. It serves protocol 2026-07-28 (stateless requests) and, through
the `initialize` handshake, earlier versions (with an `Mcp-Session-Id` over HTTP).

What it does for SEP-2792:

- Negotiates every request's own `io.modelcontextprotocol/acceptLanguage`
  (sep2792_lang.py: strict grammar, RFC 4647 matching with weights, `*` and
  q=0, case-insensitive, lookup for editions) among en (the default), fr,
  fr-CA, de and ja; nothing is kept between requests.
- Localizes the display fields: `serverInfo.title` (at `initialize`), tool,
  annotation, prompt, prompt argument, resource and template titles, the
  elicitation message and property labels, progress messages; and, taking
  the SEP's MAY, `Error.message`, one tool's error result and the welcome
  note's text. Names, URIs, keys, enum values and codes never change. The
  `io.modelcontextprotocol/serverInfo` the SDK stamps into the `_meta` of
  every 2026-07-28 result keeps the default title.
- Reports `io.modelcontextprotocol/contentLanguage` in `result._meta`,
  `error.data._meta` (localized errors), `params._meta` of progress
  notifications and of elicitation requests. Content that stays English
  (tool output, prompt text) reports `en`; the charter tool reports the
  edition its explicit `language` argument chose.
- Over Streamable HTTP, an ASGI middleware around the SDK's app checks that
  every `Accept-Language` field line, trimmed and joined with ", ", equals
  the `_meta` value byte for byte (before any grammar check; a mismatch is
  HTTP 400 with JSON-RPC error -32020 echoing the id), mirrors
  `contentLanguage` into `Content-Language` on JSON responses, adds
  `Vary: Accept-Language` to every response and `Cache-Control: private`
  when `_meta` carried a preference but no `Accept-Language` came.

SEP2792_FAULT=NAME switches on one deliberate fault (see FAULTS), so the test
can check that the suite catches it.
"""

import asyncio
import json
import logging
import os
import socket
import sys

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

sys.dont_write_bytecode = True  # no __pycache__ beside the fixture in the checkout
import sep2792_lang as lang  # noqa: E402

ACCEPT = "io.modelcontextprotocol/acceptLanguage"
CONTENT = "io.modelcontextprotocol/contentLanguage"
SUPPORTED = ["en", "fr", "fr-CA", "de", "ja"]
DEFAULT = "en"
LIST_TTL_MS = 300_000
RESOURCE_NOT_FOUND = -32002
MAX_BODY_BYTES = 4 * 1024 * 1024

FAULTS = {
    "ignore-weights": "matching: q-values are ignored, so the first acceptable range wins",
    "sticky-preference": "request scope: the first preference the process sees binds every later request",
    "unstamped-notifications": "reporting: progress notifications and elicitation requests carry no contentLanguage",
    "unreported-error-language": "reporting: a localized error carries no error.data._meta.contentLanguage",
    "drop-vary": "HTTP: no Vary: Accept-Language",
    "skip-agreement": "HTTP: Accept-Language is never compared with _meta",
    "first-line-only": "HTTP: only the first Accept-Language field line is compared with _meta",
    "public-when-stripped": "HTTP: no Cache-Control: private when _meta came without Accept-Language",
    "no-content-language": "HTTP: contentLanguage is not mirrored into Content-Language",
}
FAULT = os.environ.get("SEP2792_FAULT") or None

CATALOG = {
    "en": {
        "server-title": "Field notes",
        "tool-forecast-title": "City forecast",
        "tool-forecast-annotation": "Forecast lookup (read-only)",
        "tool-charter-title": "Charter article",
        "tool-charter-annotation": "Official text lookup (read-only)",
        "tool-subscribe-title": "Subscribe to the digest",
        "tool-subscribe-annotation": "Asks for an e-mail address",
        "tool-summary-title": "Compile a summary",
        "tool-summary-annotation": "Long-running summary",
        "elicit-message": "Which e-mail address should receive the digest?",
        "elicit-email-title": "E-mail address",
        "elicit-email-description": "Where the digest is sent",
        "progress-gather": "Gathering notes (1 of 3)…",
        "progress-sort": "Sorting notes (2 of 3)…",
        "progress-done": "Summary ready (3 of 3).",
        "prompt-postcard-title": "Draft a postcard",
        "prompt-city-title": "City",
        "prompt-tone-title": "Tone",
        "resource-welcome-title": "Welcome note",
        "resource-welcome-text": "Welcome! These notes follow your language preference.",
        "template-charter-title": "Charter article, by edition",
        "error-unknown-tool": "Unknown tool: {name}",
        "error-unknown-prompt": "Unknown prompt: {name}",
        "error-unknown-resource": "No resource at {uri}",
        "error-argument": "Missing or invalid argument: {name}",
        "error-no-edition": "No edition of {article} matches {language}",
        "error-unknown-city": "No forecast for {city}.",
        "error-declined": "The subscription was cancelled: no e-mail address was given.",
        "error-no-elicitation": "This client cannot be asked for an e-mail address.",
    },
    "fr": {
        "server-title": "Carnet de terrain",
        "tool-forecast-title": "Prévisions pour une ville",
        "tool-forecast-annotation": "Consultation des prévisions (lecture seule)",
        "tool-charter-title": "Article de la charte",
        "tool-charter-annotation": "Consultation de textes officiels (lecture seule)",
        "tool-subscribe-title": "S'abonner à la lettre d'information",
        "tool-subscribe-annotation": "Demande une adresse e-mail",
        "tool-summary-title": "Rédiger une synthèse",
        "tool-summary-annotation": "Synthèse de longue durée",
        "elicit-message": "À quelle adresse e-mail faut-il envoyer la lettre d'information ?",
        "elicit-email-title": "Adresse e-mail",
        "elicit-email-description": "Adresse de destination de la lettre",
        "progress-gather": "Collecte des notes (1 sur 3)…",
        "progress-sort": "Tri des notes (2 sur 3)…",
        "progress-done": "Synthèse prête (3 sur 3).",
        "prompt-postcard-title": "Rédiger une carte postale",
        "prompt-city-title": "Ville",
        "prompt-tone-title": "Ton",
        "resource-welcome-title": "Mot de bienvenue",
        "resource-welcome-text": "Bienvenue ! Ces notes suivent votre préférence de langue.",
        "template-charter-title": "Article de la charte, par édition",
        "error-unknown-tool": "Outil inconnu : {name}",
        "error-unknown-prompt": "Prompt inconnu : {name}",
        "error-unknown-resource": "Aucune ressource à l'adresse {uri}",
        "error-argument": "Argument manquant ou invalide : {name}",
        "error-no-edition": "Aucune édition de {article} ne correspond à {language}",
        "error-unknown-city": "Aucune prévision pour {city}.",
        "error-declined": "L'abonnement est annulé : aucune adresse e-mail n'a été donnée.",
        "error-no-elicitation": "Ce client ne peut pas demander d'adresse e-mail.",
    },
    # Canadian French: only what differs from fr; the rest falls back to fr.
    "fr-CA": {
        "tool-forecast-title": "Prévisions météo pour une ville",
        "tool-subscribe-title": "S'abonner à l'infolettre",
        "tool-subscribe-annotation": "Demande une adresse courriel",
        "tool-summary-title": "Rédiger un sommaire",
        "elicit-message": "À quelle adresse courriel faut-il envoyer l'infolettre?",
        "elicit-email-title": "Adresse courriel",
        "elicit-email-description": "Adresse de destination de l'infolettre",
        "progress-gather": "Collecte des notes (1 de 3)…",
        "progress-sort": "Tri des notes (2 de 3)…",
        "progress-done": "Sommaire prêt (3 de 3).",
        "resource-welcome-text": "Bienvenue! Ces notes suivent votre préférence linguistique.",
        "error-declined": "L'abonnement est annulé : aucune adresse courriel n'a été fournie.",
        "error-no-elicitation": "Ce client ne peut pas demander d'adresse courriel.",
    },
    "de": {
        "server-title": "Feldnotizen",
        "tool-forecast-title": "Wettervorhersage für eine Stadt",
        "tool-forecast-annotation": "Vorhersage abrufen (nur lesend)",
        "tool-charter-title": "Artikel der Charta",
        "tool-charter-annotation": "Amtliche Texte abrufen (nur lesend)",
        "tool-subscribe-title": "Den Newsletter abonnieren",
        "tool-subscribe-annotation": "Fragt nach einer E-Mail-Adresse",
        "tool-summary-title": "Zusammenfassung erstellen",
        "tool-summary-annotation": "Länger laufende Zusammenfassung",
        "elicit-message": "An welche E-Mail-Adresse soll der Newsletter gehen?",
        "elicit-email-title": "E-Mail-Adresse",
        "elicit-email-description": "Hierhin wird der Newsletter geschickt",
        "progress-gather": "Notizen werden gesammelt (1 von 3) …",
        "progress-sort": "Notizen werden sortiert (2 von 3) …",
        "progress-done": "Zusammenfassung fertig (3 von 3).",
        "prompt-postcard-title": "Postkarte entwerfen",
        "prompt-city-title": "Stadt",
        "prompt-tone-title": "Tonfall",
        "resource-welcome-title": "Begrüßung",
        "resource-welcome-text": "Willkommen! Diese Notizen folgen Ihrer Sprachpräferenz.",
        "template-charter-title": "Artikel der Charta, nach Ausgabe",
        "error-unknown-tool": "Unbekanntes Werkzeug: {name}",
        "error-unknown-prompt": "Unbekannter Prompt: {name}",
        "error-unknown-resource": "Keine Ressource unter {uri}",
        "error-argument": "Fehlendes oder ungültiges Argument: {name}",
        "error-no-edition": "Keine Ausgabe von {article} passt zu {language}",
        "error-unknown-city": "Keine Vorhersage für {city}.",
        "error-declined": "Das Abonnement wurde abgebrochen: Es wurde keine E-Mail-Adresse angegeben.",
        "error-no-elicitation": "Dieser Client kann nicht nach einer E-Mail-Adresse fragen.",
    },
    "ja": {
        "server-title": "フィールドノート",
        "tool-forecast-title": "都市の天気予報",
        "tool-forecast-annotation": "予報の参照（読み取り専用）",
        "tool-charter-title": "憲章の条文",
        "tool-charter-annotation": "公式文書の参照（読み取り専用）",
        "tool-subscribe-title": "ダイジェストを購読する",
        "tool-subscribe-annotation": "メールアドレスを尋ねます",
        "tool-summary-title": "要約を作成する",
        "tool-summary-annotation": "時間のかかる要約",
        "elicit-message": "ダイジェストの送信先のメールアドレスを入力してください。",
        "elicit-email-title": "メールアドレス",
        "elicit-email-description": "ダイジェストの送信先",
        "progress-gather": "メモを収集しています（1/3）…",
        "progress-sort": "メモを整理しています（2/3）…",
        "progress-done": "要約ができました（3/3）。",
        "prompt-postcard-title": "絵はがきの下書き",
        "prompt-city-title": "都市",
        "prompt-tone-title": "口調",
        "resource-welcome-title": "ようこそ",
        "resource-welcome-text": "ようこそ。このノートは言語の設定に従います。",
        "template-charter-title": "憲章の条文（版別）",
        "error-unknown-tool": "不明なツール: {name}",
        "error-unknown-prompt": "不明なプロンプト: {name}",
        "error-unknown-resource": "{uri} にリソースはありません",
        "error-argument": "引数がないか不正です: {name}",
        "error-no-edition": "{article} の {language} 版はありません",
        "error-unknown-city": "{city} の予報はありません。",
        "error-declined": "メールアドレスが入力されなかったため、購読を取り消しました。",
        "error-no-elicitation": "このクライアントではメールアドレスを尋ねられません。",
    },
}

# Article 1 of the Universal Declaration of Human Rights, in the editions the
# charter tool offers (its explicit `language` argument picks one).
EDITIONS = {
    "en": "All human beings are born free and equal in dignity and rights. They are endowed with "
    "reason and conscience and should act towards one another in a spirit of brotherhood.",
    "fr": "Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués "
    "de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité.",
    "de": "Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft "
    "und Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen.",
    "ja": "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。"
    "人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。",
}
ARTICLE = "article-1"
CHARTER_PREFIX = "charter://article-1/"
WELCOME_URI = "notes://welcome"
CITIES = {"paris": ("Paris", 18, "light rain"), "berlin": ("Berlin", 14, "overcast"),
          "tokyo": ("Tokyo", 22, "clear"), "montreal": ("Montréal", 9, "snow")}
CONTACT = "contact"
EMAIL = "email"
PROGRESS_STEPS = ["progress-gather", "progress-sort", "progress-done"]


def t(tag, key, **args):
    """The catalog text for `key` in `tag`, falling back to the primary
    language and then to the default (fr-CA → fr → en)."""
    for candidate in (tag, tag.split("-")[0], DEFAULT):
        text = CATALOG.get(candidate, {}).get(key)
        if text is not None:
            return text.format(**args)
    raise KeyError(key)


_sticky = lang.ABSENT


def request_language(params):
    """The tag negotiated for one request, from its own `_meta` only."""
    global _sticky
    meta = params.get("_meta") if isinstance(params, dict) else None
    value = meta.get(ACCEPT, lang.ABSENT) if isinstance(meta, dict) else lang.ABSENT
    if FAULT == "sticky-preference":
        if _sticky is lang.ABSENT:
            _sticky = value
        value = _sticky
    if FAULT == "ignore-weights" and isinstance(value, str):
        try:
            value = ", ".join(r for r, _ in lang.parse(value))
        except lang.Malformed:
            pass
    tag, _, _ = lang.negotiate(None if value is lang.ABSENT else value, SUPPORTED, DEFAULT)
    return tag


def reported(tag):
    """The `_meta` of a localized result or error."""
    return {CONTENT: tag}


def notification_meta(tag):
    """The `_meta` of a localized notification or server-to-client request."""
    return None if FAULT == "unstamped-notifications" else {CONTENT: tag}


def localized_error(tag, code, key, **args):
    """An error whose message is in `tag`, reported in `error.data._meta`."""
    data = None if FAULT == "unreported-error-language" else {"_meta": reported(tag)}
    return MCPError(code, t(tag, key, **args), data)


def raw_params(ctx):
    return ctx.params if isinstance(ctx.params, dict) else {}


def string_argument(tag, arguments, name, required):
    value = (arguments or {}).get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise localized_error(tag, types.INVALID_PARAMS, "error-argument", name=name)
    return value


def text_result(text, tag, *, is_error=False, structured=None):
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        is_error=is_error,
        structured_content=structured,
        meta=reported(tag),
    )


# Requests ---------------------------------------------------------------


async def list_tools(ctx, params):
    tag = request_language(raw_params(ctx))
    tools = [
        types.Tool(
            name="city_forecast",
            title=t(tag, "tool-forecast-title"),
            description="Today's forecast for a city (fixed sample data).",
            input_schema={"type": "object", "properties": {"city": {"type": "string", "description": "City name"}},
                          "required": ["city"]},
            annotations=types.ToolAnnotations(title=t(tag, "tool-forecast-annotation"), read_only_hint=True),
        ),
        types.Tool(
            name="read_charter",
            title=t(tag, "tool-charter-title"),
            description="Article 1 of the charter, in the edition chosen by `language` (a BCP 47 tag);"
            " without it, in the negotiated language.",
            input_schema={"type": "object",
                          "properties": {"article": {"type": "string", "enum": [ARTICLE]},
                                         "language": {"type": "string", "description": "Edition, e.g. de"}},
                          "required": ["article"]},
            annotations=types.ToolAnnotations(title=t(tag, "tool-charter-annotation"), read_only_hint=True),
        ),
        types.Tool(
            name="subscribe_digest",
            title=t(tag, "tool-subscribe-title"),
            description="Asks the user for an e-mail address (elicitation), then subscribes it.",
            input_schema={"type": "object", "properties": {}},
            annotations=types.ToolAnnotations(title=t(tag, "tool-subscribe-annotation"), read_only_hint=False),
        ),
        types.Tool(
            name="compile_summary",
            title=t(tag, "tool-summary-title"),
            description="Compiles a summary, reporting progress along the way.",
            input_schema={"type": "object", "properties": {"topic": {"type": "string"}}},
            annotations=types.ToolAnnotations(title=t(tag, "tool-summary-annotation"), read_only_hint=True),
        ),
    ]
    return types.ListToolsResult(tools=tools, ttl_ms=LIST_TTL_MS, cache_scope="public", meta=reported(tag))


async def call_tool(ctx, params):
    tag = request_language(raw_params(ctx))
    tools = {"city_forecast": forecast, "read_charter": charter, "subscribe_digest": subscribe,
             "compile_summary": summary}
    tool = tools.get(params.name)
    if tool is None:
        raise localized_error(tag, types.INVALID_PARAMS, "error-unknown-tool", name=params.name)
    return await tool(ctx, params, tag)


async def forecast(ctx, params, tag):
    city = string_argument(tag, params.arguments, "city", True)
    found = CITIES.get(city.lower())
    if found is None:
        # A tool error the user reads: localized, and reported as such.
        return text_result(t(tag, "error-unknown-city", city=city), tag, is_error=True)
    name, celsius, condition = found
    # Tool output is model-facing content: English, reported as such.
    return text_result(f"{name}: {celsius} °C, {condition}", DEFAULT,
                       structured={"city": name, "temperatureC": celsius, "condition": condition})


def edition_for(requested):
    """The charter edition for an explicit language (RFC 4647 lookup), or None."""
    try:
        return lang.lookup(requested, list(EDITIONS), None)
    except lang.Malformed:
        return None


async def charter(ctx, params, tag):
    article = string_argument(tag, params.arguments, "article", True)
    if article != ARTICLE:
        raise localized_error(tag, types.INVALID_PARAMS, "error-argument", name="article")
    # The explicit argument decides the edition; without it, the negotiated language does.
    requested = string_argument(tag, params.arguments, "language", False) or tag
    edition = edition_for(requested)
    if edition is None:
        raise localized_error(tag, types.INVALID_PARAMS, "error-no-edition", article=article, language=requested)
    return text_result(EDITIONS[edition], edition, structured={"article": article, "edition": edition})


def email_form(tag):
    schema = {
        "type": "object",
        "properties": {
            EMAIL: {"type": "string", "format": "email", "title": t(tag, "elicit-email-title"),
                    "description": t(tag, "elicit-email-description")},
        },
        "required": [EMAIL],
    }
    return types.ElicitRequestFormParams(message=t(tag, "elicit-message"), requested_schema=schema,
                                         meta=notification_meta(tag))


def confirmed(tag, answer):
    content = getattr(answer, "content", None) or {}
    email = content.get(EMAIL)
    if getattr(answer, "action", None) == "accept" and isinstance(email, str):
        return text_result(f"Subscribed {email} to the digest.", DEFAULT, structured={EMAIL: email})
    return text_result(t(tag, "error-declined"), tag, is_error=True)


async def subscribe(ctx, params, tag):
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        # 2026-07-28: an input_required result; the client retries with its answer
        # (and its own, possibly new, preference).
        answer = (params.input_responses or {}).get(CONTACT)
        if answer is not None:
            return confirmed(tag, answer)
        return types.InputRequiredResult(
            input_requests={CONTACT: types.ElicitRequest(params=email_form(tag))}, meta=reported(tag))
    # Earlier protocols: an elicitation/create request to the client, on this request's stream.
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        return text_result(t(tag, "error-no-elicitation"), tag, is_error=True)
    answer = await ctx.session.send_request(
        types.ElicitRequest(params=email_form(tag)), types.ElicitResult,
        metadata=ServerMessageMetadata(related_request_id=ctx.request_id))
    return confirmed(tag, answer)


async def summary(ctx, params, tag):
    topic = string_argument(tag, params.arguments, "topic", False) or "the notes"
    meta = raw_params(ctx).get("_meta")
    token = meta.get("progressToken") if isinstance(meta, dict) else None
    if token is not None:
        for step, key in enumerate(PROGRESS_STEPS, start=1):
            note = types.ProgressNotificationParams(progress_token=token, progress=step, total=len(PROGRESS_STEPS),
                                                    message=t(tag, key), meta=notification_meta(tag))
            await ctx.session.send_notification(types.ProgressNotification(params=note),
                                                related_request_id=ctx.request_id)
    return text_result(f"Summary of {topic}: {len(PROGRESS_STEPS)} steps completed.", DEFAULT)


async def list_prompts(ctx, params):
    tag = request_language(raw_params(ctx))
    prompt = types.Prompt(
        name="draft_postcard",
        title=t(tag, "prompt-postcard-title"),
        description="Drafts a short postcard from a city.",
        arguments=[
            types.PromptArgument(name="city", title=t(tag, "prompt-city-title"),
                                 description="The city the postcard is sent from", required=True),
            types.PromptArgument(name="tone", title=t(tag, "prompt-tone-title"),
                                 description="cheerful or formal", required=False),
        ],
    )
    return types.ListPromptsResult(prompts=[prompt], ttl_ms=LIST_TTL_MS, cache_scope="public", meta=reported(tag))


async def get_prompt(ctx, params):
    tag = request_language(raw_params(ctx))
    if params.name != "draft_postcard":
        raise localized_error(tag, types.INVALID_PARAMS, "error-unknown-prompt", name=params.name)
    city = string_argument(tag, params.arguments, "city", True)
    tone = string_argument(tag, params.arguments, "tone", False) or "cheerful"
    # Prompt text is model-facing content: English, reported as such.
    message = types.PromptMessage(role="user", content=types.TextContent(
        type="text", text=f"Write a {tone} postcard from {city} in three sentences."))
    return types.GetPromptResult(description=f"A postcard from {city}", messages=[message], meta=reported(DEFAULT))


async def list_resources(ctx, params):
    tag = request_language(raw_params(ctx))
    resource = types.Resource(uri=WELCOME_URI, name="welcome", title=t(tag, "resource-welcome-title"),
                              description="A short welcome note.", mime_type="text/plain")
    return types.ListResourcesResult(resources=[resource], ttl_ms=LIST_TTL_MS, cache_scope="public",
                                     meta=reported(tag))


async def list_resource_templates(ctx, params):
    tag = request_language(raw_params(ctx))
    template = types.ResourceTemplate(uri_template=CHARTER_PREFIX + "{language}", name="charter_article",
                                      title=t(tag, "template-charter-title"),
                                      description="Article 1 of the charter in the edition the URI names.",
                                      mime_type="text/plain")
    return types.ListResourceTemplatesResult(resource_templates=[template], ttl_ms=LIST_TTL_MS,
                                             cache_scope="public", meta=reported(tag))


async def read_resource(ctx, params):
    tag = request_language(raw_params(ctx))
    uri = str(params.uri)
    edition = edition_for(uri[len(CHARTER_PREFIX):]) if uri.startswith(CHARTER_PREFIX) else None
    if uri == WELCOME_URI:
        # Content a server MAY translate; this one does, and reports it.
        text, language = t(tag, "resource-welcome-text"), tag
    elif edition is not None:
        # The edition the URI names decides, whatever the preference.
        text, language = EDITIONS[edition], edition
    else:
        raise localized_error(tag, RESOURCE_NOT_FOUND, "error-unknown-resource", uri=uri)
    contents = types.TextResourceContents(uri=uri, mime_type="text/plain", text=text)
    return types.ReadResourceResult(contents=[contents], meta=reported(language))


async def localize_initialize(ctx, call_next):
    """Server middleware: the `initialize` result's `serverInfo.title` in the
    request's language, reported in its `_meta` (the runner builds that result
    itself, so it is localized on its way out)."""
    result = await call_next(ctx)
    if ctx.method == "initialize" and isinstance(result, dict):
        tag = request_language(raw_params(ctx))
        info = dict(result.get("serverInfo") or {})
        info["title"] = t(tag, "server-title")
        meta = dict(result.get("_meta") or {})
        meta[CONTENT] = tag
        result = {**result, "serverInfo": info, "_meta": meta}
    return result


def make_server():
    server = Server(
        "sep2792-python-notes",
        version="1.0.0",
        title=t(DEFAULT, "server-title"),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_list_resource_templates=list_resource_templates,
        on_read_resource=read_resource,
    )
    server.middleware.append(localize_initialize)
    return server


# Streamable HTTP --------------------------------------------------------


def _sendable(value):
    """Whether `value` can be one HTTP field value as it is (ASCII, no control
    character but HTAB, no surrounding SP or HTAB)."""
    return (isinstance(value, str) and value.isascii() and value == value.strip(" \t")
            and all(c == "\t" or 0x20 <= ord(c) < 0x7F for c in value))


def _header_values(headers, name):
    return [v for k, v in headers if k.lower() == name]


def _without(headers, name):
    return [(k, v) for k, v in headers if k.lower() != name]


def _with_vary(headers):
    """`Vary: Accept-Language` merged into any Vary the response has (one line)."""
    members = [m.strip() for v in _header_values(headers, b"vary") for m in v.split(b",") if m.strip()]
    if any(m.lower() in (b"accept-language", b"*") for m in members):
        return headers
    return _without(headers, b"vary") + [(b"vary", b", ".join(members + [b"Accept-Language"]))]


def _with_private(headers):
    """`Cache-Control: private`, dropping what would let a shared cache store it."""
    directives = [d.strip() for v in _header_values(headers, b"cache-control") for d in v.split(b",") if d.strip()]
    names = [d.split(b"=")[0].strip().lower() for d in directives]
    if b"no-store" in names or any(d.lower() == b"private" for d in directives):
        return headers
    # A field-qualified private="…" lets a shared cache store the rest: dropped too.
    kept = [d for d, n in zip(directives, names) if n not in (b"public", b"s-maxage", b"private")]
    return _without(headers, b"cache-control") + [(b"cache-control", b", ".join(kept + [b"private"]))]


def _preference_of(body):
    """The request's `_meta` preference (or ABSENT) and its id (or None), from
    the raw body; a body that is not one JSON object carries none."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return lang.ABSENT, None
    if not isinstance(message, dict):
        return lang.ABSENT, None
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
        request_id = None
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    value = meta.get(ACCEPT, lang.ABSENT) if isinstance(meta, dict) else lang.ABSENT
    return value, request_id


def _content_language_of(body):
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict):
        return None
    for holder in (message.get("result"), (message.get("error") or {}).get("data")):
        meta = holder.get("_meta") if isinstance(holder, dict) else None
        if isinstance(meta, dict) and CONTENT in meta:
            return meta[CONTENT]
    return None


async def _reply(send, status, headers, payload):
    body = json.dumps(payload, separators=(",", ":")).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())] + headers
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class LanguageMirror:
    """ASGI middleware for SEP-2792's Streamable HTTP binding around the SDK's app."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # Every field line, in received order (the ASGI server keeps repeats apart).
        lines = [v for k, v in scope["headers"] if k.lower() == b"accept-language"]
        if FAULT == "first-line-only":
            lines = lines[:1]
        meta = lang.ABSENT
        if scope["method"] == "POST":
            chunks, size, more = [], 0, True
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    await _reply(send, 413, [(b"vary", b"Accept-Language")], {
                        "jsonrpc": "2.0", "id": None,
                        "error": {"code": types.INVALID_REQUEST,
                                  "message": f"request body larger than {MAX_BODY_BYTES} bytes"}})
                    return
                chunks.append(chunk)
                more = message.get("more_body", False)
            body = b"".join(chunks)
            meta, request_id = _preference_of(body)
            # Agreement comes first: before any grammar check, byte for byte.
            if FAULT != "skip-agreement" and lang.agree(meta, lines) == "mismatch":
                joined = lang.joined_field(lines).decode("latin-1")
                await _reply(send, 400, [(b"cache-control", b"no-store"), (b"vary", b"Accept-Language")], {
                    "jsonrpc": "2.0", "id": request_id,
                    "error": {"code": types.HEADER_MISMATCH,
                              "message": "HeaderMismatch: Accept-Language does not agree with _meta",
                              "data": {"header": "Accept-Language", "value": joined, "lines": len(lines),
                                       "metaKey": ACCEPT, "meta": meta if isinstance(meta, str) else None}}})
                return
            receive = _replay(body, receive)
        private = isinstance(meta, str) and not lines and FAULT != "public-when-stripped"
        await self.app(scope, receive, _ResponseFixer(send, private))


def _replay(body, receive):
    sent = False

    async def replay():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class _ResponseFixer:
    """Adds Vary (and private) to every response; holds a JSON response until
    its body is complete, to mirror its contentLanguage into Content-Language."""

    def __init__(self, send, private):
        self.send = send
        self.private = private
        self.start = None
        self.chunks = []

    async def __call__(self, message):
        if message["type"] == "http.response.start":
            headers = [(bytes(k), bytes(v)) for k, v in message.get("headers", [])]
            if FAULT != "drop-vary":
                headers = _with_vary(headers)
            if self.private:
                headers = _with_private(headers)
            headers = _without(headers, b"content-language")
            message = {**message, "headers": headers}
            media = b"".join(_header_values(headers, b"content-type")[:1]).split(b";")[0].strip().lower()
            if media == b"application/json":
                self.start = message
                return
            await self.send(message)
        elif message["type"] == "http.response.body" and self.start is not None:
            self.chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = b"".join(self.chunks)
            start, self.start = self.start, None
            value = _content_language_of(body)
            if _sendable(value) and FAULT != "no-content-language":
                start = {**start, "headers": start["headers"] + [(b"content-language", value.encode())]}
            await self.send(start)
            await self.send({"type": "http.response.body", "body": body, "more_body": False})
        else:
            await self.send(message)


async def serve_http(port):
    import uvicorn

    server = make_server()
    app = LanguageMirror(server.streamable_http_app(json_response=False, stateless_http=False))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    config = uvicorn.Config(app, http="h11", lifespan="on", log_level="warning", access_log=False)
    web = uvicorn.Server(config)
    task = asyncio.create_task(web.serve(sockets=[sock]))
    while not web.started:
        if task.done():
            await task
            return
        await asyncio.sleep(0.02)
    print(f"listening http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    await task


async def serve_stdio():
    server = make_server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main():
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if FAULT is not None and FAULT not in FAULTS:
        sys.exit(f"SEP2792_FAULT={FAULT!r} is not one of: {', '.join(FAULTS)}")
    if len(sys.argv) >= 2 and sys.argv[1] == "stdio":
        asyncio.run(serve_stdio())
    elif len(sys.argv) >= 2 and sys.argv[1] == "http":
        asyncio.run(serve_http(int(sys.argv[2]) if len(sys.argv) > 2 else 0))
    else:
        sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main()
