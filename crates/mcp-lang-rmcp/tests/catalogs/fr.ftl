# Test catalog: French.

tool-divide = Diviser
