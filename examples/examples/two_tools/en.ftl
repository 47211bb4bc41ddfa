# The two-tool example's display strings: English, the server's default. The tool
# titles are the ones in the code, so they are not repeated here.

divide-by-zero = Division by zero.
left = { $left ->
    [0] Done
    [one] One step to go
   *[other] { $left } steps to go
}
