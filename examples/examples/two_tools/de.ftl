# The two-tool example's display strings: German.

server = Rechner
tool-divide = Teilen
tool-countdown = Countdown bis null
divide-by-zero = Die Division durch null ist nicht definiert.
step = { $progress } von { $total } erledigt
