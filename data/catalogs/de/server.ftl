# Anzeigetexte des mcp-lang-Referenzservers: Deutsch.

server = Referenzserver für Sprachpräferenzen

tool-weather_current = Aktuelles Wetter
    .annotation-title = Wetterabfrage (nur lesend)
tool-get_official_document = Amtliches Dokument
    .annotation-title = Abruf amtlicher Dokumente
tool-send_confirmation = Bestätigung per E-Mail
    .annotation-title = Abfrage der E-Mail-Adresse
tool-prepare_report = Bericht erstellen
    .annotation-title = Lang laufender Bericht

prompt-plan_trip = Reise planen
    .arg-city = Stadt
    .arg-days = Anzahl der Tage

resource-languages = Unterstützte Sprachen
template-official_document = Ausgabe eines amtlichen Dokuments

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
error-tool-always-fails = Das Werkzeug { $name } schlägt immer fehl, mit Absicht.
