replicas = 4
