variable "tags" {
  description = "Legacy bare map type: Terraform reads it as map(any)."
  type        = map
  default     = {}
}

variable "zones" {
  type    = list
  default = ["eu-west-1a", "eu-west-1b"]
}

variable "apps" {
  type = map(object({
    replicas = optional(number, 1)
    storage  = optional(string)
    class    = optional(string)
  }))
  default = {
    shop = { storage = "20Gi" }
    blog = { replicas = 2, class = "standard" }
  }
}

variable "create_roles" {
  type     = bool
  default  = true
  nullable = false
}
