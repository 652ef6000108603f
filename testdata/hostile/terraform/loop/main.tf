# A module that calls itself.
module "again" {
  source = "../loop"
}
