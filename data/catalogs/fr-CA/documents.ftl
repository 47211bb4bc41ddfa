# Éditions officielles des documents servis par `get_official_document`.
# La Déclaration universelle n'a qu'une édition française officielle : le
# français canadien reprend ce texte mot pour mot.

udhr-article-1 = Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité.
