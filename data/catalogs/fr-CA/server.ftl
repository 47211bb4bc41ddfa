# Chaînes d'affichage du serveur de référence mcp-lang : français canadien.
# Usage québécois : « courriel » plutôt que « e-mail », « entrer » plutôt que « saisir ».

server = Serveur de référence des préférences linguistiques

tool-weather_current = Météo actuelle
    .annotation-title = Consultation de la météo (lecture seule)
tool-get_official_document = Document officiel
    .annotation-title = Consultation de documents officiels
tool-send_confirmation = Confirmation par courriel
    .annotation-title = Demande d'adresse courriel
tool-prepare_report = Préparer un rapport
    .annotation-title = Rapport de longue durée

prompt-plan_trip = Planifier un voyage
    .arg-city = Ville
    .arg-days = Nombre de jours

resource-languages = Langues prises en charge
template-official_document = Édition d'un document officiel

elicit-email-message = Veuillez entrer votre adresse courriel.
elicit-email-title = Adresse courriel
elicit-email-description = Adresse pour la confirmation

progress-collect = Collecte des données ({ $step } sur { $total })…
progress-analyse = Analyse des données ({ $step } sur { $total })…
progress-write = Rédaction du rapport ({ $step } sur { $total })…
progress-done = Le rapport est prêt.

error-unknown-tool = Outil inconnu : { $name }
error-missing-argument = Argument manquant : { $name }
error-unknown-city = Ville inconnue : { $city }
error-unknown-document = Aucun document officiel ne s'appelle { $id }.
error-document-language = Il n'existe pas d'édition { $language } du document { $id }.
error-unknown-prompt = Invite inconnue : { $name }
error-unknown-resource = Aucune ressource à l'adresse { $uri }.
error-email-declined = Aucune adresse courriel n'a été fournie.
error-elicitation-unsupported = Ce client ne peut pas demander d'entrée à l'utilisateur.
error-tool-always-fails = L'outil { $name } échoue toujours, volontairement.
