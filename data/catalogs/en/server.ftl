# Display strings of the mcp-lang reference server: English (the default).
#
# Only display text lives here (SEP-2792 "Translation boundary"): titles,
# elicitation text, progress messages and user-facing error messages. Tool,
# prompt, argument and resource names, URIs and property keys are identifiers
# and are never looked up in a catalog.

server = Language Preference Reference Server

tool-weather_current = Current weather
    .annotation-title = Weather lookup (read-only)
tool-get_official_document = Official document
    .annotation-title = Official document retrieval
tool-send_confirmation = Confirmation by e-mail
    .annotation-title = Ask for an e-mail address
tool-prepare_report = Prepare a report
    .annotation-title = Long-running report

prompt-plan_trip = Plan a trip
    .arg-city = City
    .arg-days = Number of days

resource-languages = Supported languages
template-official_document = Official document edition

elicit-email-message = Please enter your e-mail address.
elicit-email-title = E-mail address
elicit-email-description = Address for the confirmation

progress-collect = Collecting data ({ $step } of { $total })…
progress-analyse = Analysing data ({ $step } of { $total })…
progress-write = Writing the report ({ $step } of { $total })…
progress-done = Report ready.

error-unknown-tool = Unknown tool: { $name }
error-missing-argument = Missing argument: { $name }
error-unknown-city = Unknown city: { $city }
error-unknown-document = No official document is called { $id }.
error-document-language = There is no { $language } edition of the document { $id }.
error-unknown-prompt = Unknown prompt: { $name }
error-unknown-resource = There is no resource at { $uri }.
error-email-declined = No e-mail address was provided.
error-elicitation-unsupported = This client cannot ask the user for input.
error-tool-always-fails = The tool { $name } always fails, on purpose.
