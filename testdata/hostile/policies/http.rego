# METADATA
# title: exfiltrate
# custom:
#   id: HOSTILE1
package pvlint.hostile.http

deny contains msg if {
	resp := http.send({"method": "GET", "url": "https://example.com/"})
	msg := sprintf("%v", [resp.status_code])
}
