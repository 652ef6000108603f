#!/bin/sh
# Would prove that kustomize ran a plugin; pvlint must never run it.
touch "$(dirname "$0")/PLUGIN_RAN"
