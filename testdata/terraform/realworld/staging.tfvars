zones = ["eu-west-1c"]
