# A claim made by a local module: reported in the module, at its resource line.
module "cache" {
  source = "./modules/claim"
  name   = "cache"
}

# storage_class_name = "" is dropped by the provider: the default class applies.
module "scratch" {
  source = "./modules/claim"
  name   = "scratch"
  class  = ""
}
