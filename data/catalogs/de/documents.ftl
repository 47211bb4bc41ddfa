# Amtliche Ausgaben der Dokumente, die `get_official_document` liefert.

udhr-article-1 = Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen.
