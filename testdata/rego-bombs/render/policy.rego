# strings.render_template runs Go's text/template in one builtin call: three nested
# ranges over 3,000 numbers write 27 billion copies of a line.
package hostile.render

import rego.v1

deny contains msg if {
	input.kind == "Deployment"
	s := strings.render_template("{{range $i := .n}}{{range $j := $.n}}{{range $k := $.n}}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{{end}}{{end}}{{end}}", {"n": numbers.range(1, 3000)})
	msg := sprintf("%d", [count(s)])
}
