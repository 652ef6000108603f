package acme.replicas_test

import rego.v1

import data.acme.replicas

single := {"kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 1}}

test_single_replica_in_prod if {
	replicas.warn == {{"msg": "Deployment web runs 1 replica in prod", "path": ["spec", "replicas"]}} with input as single
		with data.pvlint.resource as {"namespace": "prod"}
}

test_terraform_string_replicas if {
	count(replicas.warn) == 1 with input as json.patch(single, [{"op": "replace", "path": "/spec/replicas", "value": "1"}])
		with data.pvlint.resource as {"namespace": "prod"}
}

test_default_is_one_replica if {
	count(replicas.warn) == 1 with input as {"kind": "StatefulSet", "metadata": {"name": "db"}}
		with data.pvlint.resource as {"namespace": "prod"}
}

test_other_namespaces_pass if {
	count(replicas.warn) == 0 with input as single
		with data.pvlint.resource as {"namespace": "dev"}
}
