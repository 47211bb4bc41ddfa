//! The SEP-2792 sentences the scenarios cite, verbatim.

pub(crate) const MATCH: &str = "A server that participates MUST use matching behavior compatible with HTTP language negotiation and RFC 4647, including weights and wildcard semantics.";
pub(crate) const FALLBACK: &str = "If no supported language matches, the server MUST use its server-defined default and MUST NOT return an error solely because the preference was unmatched.";
pub(crate) const REPORT: &str = "If a server honors acceptLanguage, including by falling back to its default, it MUST report the actual language used in io.modelcontextprotocol/contentLanguage.";
pub(crate) const CONTENT_LANGUAGE_SYNTAX: &str = "The value MUST follow Content-Language syntax and meaning in RFC 9110 §8.5: one or more BCP 47 language tags describing the natural language of the intended audience.";
pub(crate) const MALFORMED: &str = "A malformed canonical value is ignored as an absent preference and MUST NOT on its own produce an error.";
pub(crate) const REUSE: &str = "A server MUST NOT reuse a preference from an earlier request when processing a later request that omits or changes the field.";
pub(crate) const TRANSLATE: &str = "When a server honors the preference and has a supported selected language, it SHOULD translate these display-oriented fields: BaseMetadata.title on Implementation, Tool, Resource, ResourceTemplate, Prompt, PromptArgument, and PromptReference; ToolAnnotations.title; …";
pub(crate) const IDENTIFIERS: &str = "A server MUST NOT translate a machine-interpreted identifier or token. This categorical rule includes: MCP method names; every BaseMetadata.name and every params.name, including tool, prompt, and resource names; URIs and URI templates; MIME types; JSON and JSON Schema property keys; enum and const values; …";
pub(crate) const MESSAGES: &str = "Messages produced while processing one request, such as an input-required elicitation or a progress notification, use that request's selected language.";
pub(crate) const ELICITATION_KEYS: &str = "property-level title and description values in ElicitRequestFormParams.requestedSchema (property keys remain stable)";
pub(crate) const NOTIFICATION: &str = "The field is carried: … in params._meta for a localized notification associated with the request.";
pub(crate) const ERROR_META: &str = "The field is carried: … in error.data._meta for an error response whose user-facing text is localized. If error.data carries contentLanguage, it MUST be an object.";
pub(crate) const EXPLICIT: &str = "If a method or tool has an explicit language argument, that argument SHOULD take precedence over the negotiated preference for the content it controls.";
pub(crate) const MIRROR_RESPONSE: &str = "For a JSON response carrying contentLanguage, including an error response carrying it in error.data._meta, the server MUST mirror it into Content-Language.";
pub(crate) const ONE_LINE: &str = "Senders MUST emit exactly one field line for each mirrored language field, so that no legal recombination of repeated field lines can change the value a receiver computes.";
pub(crate) const MISSING_HEADER: &str = "The server MAY tolerate a missing or stripped Accept-Language header and use the canonical _meta value. … removal is always safe, because a missing Accept-Language is tolerated.";
pub(crate) const MISMATCH: &str = "If both are present and do not agree, the server MUST reject the request with HTTP 400 Bad Request and HeaderMismatch (-32020).";
pub(crate) const BARE_HEADER: &str =
    "A bare header without the canonical _meta field does not create an MCP preference.";
pub(crate) const AGREE_PAIRS: &str = "Internal whitespace, tag casing, range order, and q-value spelling are therefore significant …: en-US and en-us, en;q=0.9 and en;q=0.900, and en-US,en and en-US, en are each pairs that do not agree.";
pub(crate) const AGREE_OWS: &str = "A field line `Accept-Language:  en ` and a _meta value of en MUST agree, because the surrounding whitespace is not part of the field value.";
pub(crate) const AGREE_LINES: &str = "Two field lines valued en-US and en;q=0.9 combine to en-US, en;q=0.9 and MUST agree with exactly that _meta value.";
pub(crate) const AGREE_ALL_LINES: &str = "An accessor that returns only the first value of a repeated field is not sufficient, because it can hide a conflicting field line.";
pub(crate) const AGREE_FIRST: &str = "Agreement is evaluated before grammar validation, so the outcome never depends on whether either value happens to be well formed.";
pub(crate) const SSE: &str = "If it does send one, every contentLanguage carried by a message on that stream MUST agree with it. Each localized response or notification still carries its own canonical _meta value.";
pub(crate) const VARY: &str =
    "An HTTP response that varies by language MUST include Vary: Accept-Language.";
pub(crate) const STRIPPED: &str = "If a shared cache cannot observe the language signal, for example because an intermediary stripped the header while preserving _meta, the response MUST either be private or use an equivalent language-aware key visible to that cache.";
pub(crate) const TTL: &str = "Language-dependent responses remain cacheable. Existing ttlMs and cacheScope freshness and sharing semantics are unchanged.";
pub(crate) const CLIENT_MIRROR: &str = "A Streamable HTTP client that sends acceptLanguage MUST send an Accept-Language field whose value agrees exactly with it.";
pub(crate) const AGREE_META: &str = "Take the decoded _meta string from the parsed JSON body. The implementation MUST NOT trim, case-fold, reorder, or otherwise normalize it.";
pub(crate) const BIND: &str = "A server MUST NOT bind it to a connection or logical session.";
pub(crate) const CARRIED: &str = "The field is carried: in result._meta for a successful or input-required response; in error.data._meta for an error response whose user-facing text is localized; and in params._meta for a localized notification associated with the request.";
