print("moat")
