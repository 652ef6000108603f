variable "binding_mode" {
  type        = string
  description = "Binding mode of the fast class; the default is overridden in terraform.tfvars."
  default     = "Immediate"
}

variable "replicas" {
  type    = number
  default = 1
}

variable "namespace" {
  type    = string
  default = "shop"
}

variable "image" {
  type = string
}

variable "classes" {
  type = map(object({
    provisioner = string
    binding     = optional(string, "WaitForFirstConsumer")
  }))
  default = {
    bulk = { provisioner = "efs.csi.aws.com" }
  }
}
