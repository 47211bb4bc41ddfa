# The two-tool example's display strings: French.

server = Calculatrice
tool-divide = Diviser
tool-countdown = Compte à rebours
divide-by-zero = La division par zéro n'est pas définie.
left = { $left ->
    [0] Terminé
    [one] Plus qu'une étape
   *[other] Plus que { $left } étapes
}
