# Test catalog: English.

tool-divide = Divide
