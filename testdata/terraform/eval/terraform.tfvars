binding_mode = "WaitForFirstConsumer"
