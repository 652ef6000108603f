azure_binding = "WaitForFirstConsumer"
