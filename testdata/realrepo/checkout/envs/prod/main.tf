# `cd envs/prod && pvlint .`: the module lies outside the working directory but inside
# the checkout, so it is read.
module "app" {
  source   = "../../modules/app"
  replicas = 3
}
