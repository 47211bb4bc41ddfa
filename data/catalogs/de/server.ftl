# Anzeigetexte des mcp-lang-Referenzservers: Deutsch.

server-title = Referenzserver für Sprachpräferenzen

tool-weather-title = Aktuelles Wetter
tool-weather-annotation-title = Wetterabfrage (nur lesend)
tool-document-title = Amtliches Dokument
tool-document-annotation-title = Abruf amtlicher Dokumente
tool-contact-title = Bestätigung per E-Mail
tool-contact-annotation-title = Abfrage der E-Mail-Adresse
tool-report-title = Bericht erstellen
tool-report-annotation-title = Lang laufender Bericht

prompt-trip-title = Reise planen
prompt-trip-city-title = Stadt
prompt-trip-days-title = Anzahl der Tage

resource-languages-title = Unterstützte Sprachen
template-document-title = Ausgabe eines amtlichen Dokuments

elicit-email-message = Bitte geben Sie Ihre E-Mail-Adresse ein.
elicit-email-title = E-Mail-Adresse
elicit-email-description = Adresse für die Bestätigung

progress-collect = Daten werden gesammelt ({ $step } von { $total }) …
progress-analyse = Daten werden ausgewertet ({ $step } von { $total }) …
progress-write = Bericht wird geschrieben ({ $step } von { $total }) …
progress-done = Der Bericht ist fertig.

error-unknown-tool = Unbekanntes Werkzeug: { $name }
error-missing-argument = Fehlendes Argument: { $name }
error-unknown-city = Unbekannte Stadt: { $city }
error-unknown-document = Es gibt kein amtliches Dokument namens { $id }.
error-document-language = Vom Dokument { $id } gibt es keine Ausgabe in der Sprache { $language }.
error-unknown-prompt = Unbekannte Vorlage: { $name }
error-unknown-resource = Unter { $uri } gibt es keine Ressource.
error-email-declined = Es wurde keine E-Mail-Adresse angegeben.
error-elicitation-unsupported = Dieser Client kann den Benutzer nicht um Eingaben bitten.
