module github.com/pvlint/pvlint

go 1.26.0

require go.yaml.in/yaml/v3 v3.0.6

require github.com/google/go-cmp v0.7.0 // indirect
