# Teaghráin taispeána fhreastalaí tagartha mcp-lang: Gaeilge.

server-title = Freastalaí tagartha do rogha teanga

tool-weather-title = An aimsir faoi láthair
tool-weather-annotation-title = Cuardach aimsire (léamh amháin)
tool-document-title = Doiciméad oifigiúil
tool-document-annotation-title = Doiciméid oifigiúla a aisghabháil
tool-contact-title = Deimhniú trí ríomhphost
tool-contact-annotation-title = Iarratas ar sheoladh ríomhphoist
tool-report-title = Tuarascáil a ullmhú
tool-report-annotation-title = Tuarascáil a thógann tamall

prompt-trip-title = Turas a phleanáil
prompt-trip-city-title = Cathair
prompt-trip-days-title = Líon na laethanta

resource-languages-title = Teangacha a dtacaítear leo
template-document-title = Eagrán de dhoiciméad oifigiúil

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
