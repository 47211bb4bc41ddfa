# The two-tool example's display strings: English, the server's default. The tool
# titles are the ones in the code, so they are not repeated here.

divide-by-zero = Division by zero is not defined.
step = { $progress } of { $total } done
