# Teaghráin taispeána fhreastalaí tagartha mcp-lang: Gaeilge.

server = Freastalaí tagartha do rogha teanga

tool-weather_current = An aimsir faoi láthair
    .annotation-title = Cuardach aimsire (léamh amháin)
tool-get_official_document = Doiciméad oifigiúil
    .annotation-title = Doiciméid oifigiúla a aisghabháil
tool-send_confirmation = Deimhniú trí ríomhphost
    .annotation-title = Iarratas ar sheoladh ríomhphoist
tool-prepare_report = Tuarascáil a ullmhú
    .annotation-title = Tuarascáil a thógann tamall

prompt-plan_trip = Turas a phleanáil
    .arg-city = Cathair
    .arg-days = Líon na laethanta

resource-languages = Teangacha a dtacaítear leo
template-official_document = Eagrán de dhoiciméad oifigiúil

elicit-email-message = Cuir isteach do sheoladh ríomhphoist, le do thoil.
elicit-email-title = Seoladh ríomhphoist
elicit-email-description = Seoladh don deimhniú

progress-collect = Sonraí á mbailiú ({ $step } as { $total })…
progress-analyse = Sonraí á n-anailísiú ({ $step } as { $total })…
progress-write = An tuarascáil á scríobh ({ $step } as { $total })…
progress-done = Tá an tuarascáil réidh.

error-unknown-tool = Uirlis anaithnid: { $name }
error-missing-argument = Argóint ar iarraidh: { $name }
error-unknown-city = Cathair anaithnid: { $city }
error-unknown-document = Níl aon doiciméad oifigiúil darb ainm { $id }.
error-document-language = Níl eagrán { $language } den doiciméad { $id } ann.
error-unknown-prompt = Leid anaithnid: { $name }
error-unknown-resource = Níl aon acmhainn ag { $uri }.
error-email-declined = Níor tugadh seoladh ríomhphoist.
error-elicitation-unsupported = Ní féidir leis an gcliant seo ionchur a iarraidh ar an úsáideoir.
error-tool-always-fails = Teipeann ar an uirlis { $name } i gcónaí, d'aon ghnó.
