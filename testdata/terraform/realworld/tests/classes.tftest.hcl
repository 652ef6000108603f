run "standard_class" {
  command = plan
  assert {
    condition     = kubernetes_storage_class_v1.standard.volume_binding_mode == "Immediate"
    error_message = "The override sets Immediate."
  }
}
