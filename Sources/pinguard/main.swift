print("pinguard")
