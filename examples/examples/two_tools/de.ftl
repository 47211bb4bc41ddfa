# The two-tool example's display strings: German.

server = Rechner
tool-divide = Teilen
tool-countdown = Countdown bis null
divide-by-zero = Die Division durch null ist nicht definiert.
left = { $left ->
    [0] Fertig
    [one] Noch ein Schritt
   *[other] Noch { $left } Schritte
}
