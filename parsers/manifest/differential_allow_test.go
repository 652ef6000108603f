package manifest

import (
	"regexp"
	"strings"
)

// Why pvlint reads a stream differently from kubectl or yaml.v3 (docs/yaml.md).
const (
	// Against kubectl: constructs where pvlint keeps reading valid YAML, or reads
	// with yaml.v3 where kubectl reads with yaml.v2.
	reasonSeparator         = "kubectl's stream splitter rejects a node on the '---' line ('--- |', '--- !tag', '--- text') and takes '---#x' for a marker; pvlint reads such lines as YAML does, as yaml.v3, Helm and kustomize do"
	reasonDirectiveAfterEnd = "a directive after '...' in the same '---' piece: kubectl reads only the first document of a piece and never sees it; pvlint reports every directive"
	reasonBareAfterEnd      = "a document after '...' without '---': kubectl reads only the first document of a '---' piece and drops it, yaml.v3's stream reader rejects it; pvlint reads it, as kustomize does"
	reasonChompSpaces       = "a block scalar that ends the input with a line of only spaces or without a line break: yaml.v2 (kubectl) adds a line break that the YAML spec and yaml.v3 (pvlint's parser) do not"
	reasonNonSpecificTag    = "the non-specific tag '!': yaml.v2 (kubectl) reads '! 12' as a string and a lone '!' as an empty string; yaml.v3 (pvlint's parser) resolves the scalar; no manifest writes it"
	reasonFlowColonNextLine = "a flow mapping whose ':' is on the line after its key: yaml.v2 (kubectl) reads it, yaml.v3 (pvlint's parser) rejects it: a PVL000, not a wrong value"
	reasonOnlyEnd           = "a stream of only '...' and comments: kubectl and yaml.v3 reject it, pvlint reads it as empty (no object, no finding)"
	reasonPercentInBlock    = "a line starting with '%' in a top-level block scalar of a document after '...': yaml.v3 reading that piece alone takes it for a directive; kubectl reads only the first document of the piece"
	reasonLoneCR            = "a carriage return not followed by a line feed: YAML, yaml.v3 and pvlint read it as a line break, kubectl's reader does not"
	reasonJSONThenOther     = "a stream that starts as JSON and goes on with something that is not: kubectl reads the rest as YAML after one value and fails after two; pvlint reads the whole stream as YAML"
	reasonBinary            = "a !!binary scalar: kubectl and yaml.v3 decode the base64, pvlint keeps the text; no Kubernetes field is written with !!binary"

	// Against yaml.v3: where pvlint reads what kubectl sends, and yaml.v3 does not.
	reasonDirective  = "a %YAML or %TAG directive: kubectl splits the stream at '---' and fails on the directive, pvlint reports it (PVL000); yaml.v3 reads the stream whole"
	reasonPieces     = "an error after the first document of a '---' piece (after '...', or text yaml.v3's stream reader rejects): pvlint, like kubectl, reads each piece's first document"
	reasonNullKey    = "a null mapping key: kubectl cannot name a JSON field with it and rejects the stream, so pvlint does (PVL000); yaml.v3 reads it"
	reasonYAML11     = "YAML 1.1 booleans (yes, no, on, off, y, n) and keys that are numbers or booleans: kubectl reads them with yaml.v2's rules (true, false, \"16\"), as pvlint does; yaml.v3 keeps the text"
	reasonTimestamp  = "a plain timestamp: kubectl sends its text, as pvlint reads it; yaml.v3 decodes a time"
	reasonJSON       = "a JSON stream (first character '{'): kubectl reads it with encoding/json (objects one after another, '\\/' escapes), as pvlint does; yaml.v3 stops after the first object or rejects '\\/'"
	reasonDuplicate  = "a duplicate key: pvlint reports PVL000 at the second key and reads the last value, as kubectl's conversion does; yaml.v3 rejects the mapping"
	reasonMergeOrder = "a merge key after a key of the mapping: kubectl applies a mapping's entries in order, so the merged value wins, as in pvlint; yaml.v3 lets the mapping's own key win"
)

// allowDivergence lists, by "<case> <reader>", the inputs that pvlint reads
// differently from kubectl or yaml.v3, each with its reason.
var allowDivergence = map[string]string{
	"k8s:booleans.yaml yaml.v3":             reasonYAML11,
	"k8s:concatenated.json yaml.v3":         reasonJSON,
	"k8s:duplicate-key.yaml yaml.v3":        reasonDuplicate,
	"k8s:integers.yaml yaml.v3":             reasonYAML11,
	"k8s:keys.yaml yaml.v3":                 reasonYAML11,
	"k8s:merge-before-own-key.yaml yaml.v3": reasonMergeOrder,
	"k8s:scalars.yaml yaml.v3":              reasonTimestamp,
	"k8s:tag-directive.yaml yaml.v3":        reasonDirective,
	"k8s:yaml-directive.yaml yaml.v3":       reasonDirective,
	"yts:2G84-02 kubectl":                   reasonSeparator,
	"yts:2G84-03 kubectl":                   reasonSeparator,
	"yts:2XXW kubectl":                      reasonSeparator,
	"yts:35KP kubectl":                      reasonSeparator,
	"yts:3HFZ yaml.v3":                      reasonPieces,
	"yts:4H7K yaml.v3":                      reasonPieces,
	"yts:4MUZ-00 kubectl":                   reasonFlowColonNextLine,
	"yts:4Q9F kubectl":                      reasonSeparator,
	"yts:565N kubectl":                      reasonBinary,
	"yts:565N yaml.v3":                      reasonBinary,
	"yts:5TYM yaml.v3":                      reasonDirective,
	"yts:6CK3 yaml.v3":                      reasonDirective,
	"yts:6FWR kubectl":                      reasonSeparator,
	"yts:6JQW kubectl":                      reasonSeparator,
	"yts:6WLZ kubectl":                      reasonDirectiveAfterEnd,
	"yts:6WLZ yaml.v3":                      reasonDirective,
	"yts:753E kubectl":                      reasonSeparator,
	"yts:7Z25 kubectl":                      reasonBareAfterEnd,
	"yts:7Z25 yaml.v3":                      reasonBareAfterEnd,
	"yts:82AN kubectl":                      reasonSeparator,
	"yts:93WF kubectl":                      reasonSeparator,
	"yts:96L6 kubectl":                      reasonSeparator,
	"yts:9MQT-00 kubectl":                   reasonSeparator,
	"yts:9WXW kubectl":                      reasonDirectiveAfterEnd,
	"yts:9WXW yaml.v3":                      reasonDirective,
	"yts:B3HG kubectl":                      reasonSeparator,
	"yts:BS4K yaml.v3":                      reasonPieces,
	"yts:C4HZ yaml.v3":                      reasonDirective,
	"yts:CC74 yaml.v3":                      reasonDirective,
	"yts:DFF7 yaml.v3":                      reasonNullKey,
	"yts:DK3J kubectl":                      reasonSeparator,
	"yts:DK3J yaml.v3":                      reasonPieces,
	"yts:EB22 yaml.v3":                      reasonPieces,
	"yts:EXG3 kubectl":                      reasonSeparator,
	"yts:FH7J yaml.v3":                      reasonNullKey,
	"yts:FP8R kubectl":                      reasonSeparator,
	"yts:FP8R yaml.v3":                      reasonPieces,
	"yts:FTA2 kubectl":                      reasonSeparator,
	"yts:HWV9 kubectl":                      reasonOnlyEnd,
	"yts:HWV9 yaml.v3":                      reasonOnlyEnd,
	"yts:J7PZ kubectl":                      reasonSeparator,
	"yts:JEF9-02 kubectl":                   reasonChompSpaces,
	"yts:K54U kubectl":                      reasonSeparator,
	"yts:KS4U yaml.v3":                      reasonPieces,
	"yts:KSS4 kubectl":                      reasonSeparator,
	"yts:L24T-01 kubectl":                   reasonChompSpaces,
	"yts:L383 kubectl":                      reasonSeparator,
	"yts:M7A3 kubectl":                      reasonPercentInBlock,
	"yts:MUS6-00 yaml.v3":                   reasonDirective,
	"yts:MUS6-02 yaml.v3":                   reasonDirective,
	"yts:MUS6-03 yaml.v3":                   reasonDirective,
	"yts:MUS6-04 yaml.v3":                   reasonDirective,
	"yts:P76L yaml.v3":                      reasonDirective,
	"yts:PW8X yaml.v3":                      reasonNullKey,
	"yts:Q5MG yaml.v3":                      reasonJSON,
	"yts:QT73 kubectl":                      reasonOnlyEnd,
	"yts:QT73 yaml.v3":                      reasonOnlyEnd,
	"yts:RHX7 yaml.v3":                      reasonPieces,
	"yts:S4JQ kubectl":                      reasonNonSpecificTag,
	"yts:T26H kubectl":                      reasonSeparator,
	"yts:T5N4 kubectl":                      reasonSeparator,
	"yts:U3C3 yaml.v3":                      reasonDirective,
	"yts:UGM3 kubectl":                      reasonSeparator,
	"yts:UGM3 yaml.v3":                      reasonTimestamp,
	"yts:UKK6-02 kubectl":                   reasonNonSpecificTag,
	"yts:Z9M4 yaml.v3":                      reasonDirective,
}

var (
	nonSpecificTag = regexp.MustCompile(`(^|[\s\[{,:-])!(\s|$)`)
	loneCR         = regexp.MustCompile(`\r([^\n]|$)`)
	markerLike     = regexp.MustCompile(`(^|\n)(---|\.\.\.)\S`)
	blockScalar    = regexp.MustCompile(`[|>][-+0-9]*[ \t]*(#.*)?\n`)
)

// fuzzAllowed reports whether a random stream holds a construct whose divergence
// from kubectl the allow-list gives a reason for (those of reasonBinary,
// reasonNonSpecificTag, reasonChompSpaces, reasonBareAfterEnd, reasonSeparator,
// reasonLoneCR, reasonJSONThenOther).
func fuzzAllowed(s string) bool {
	return strings.Contains(s, "!!binary") || nonSpecificTag.MatchString(s) ||
		blockScalar.MatchString(s) && (!strings.HasSuffix(s, "\n") || strings.TrimSpace(lastLine(s)) == "") ||
		strings.HasPrefix(s, "...") || strings.Contains(s, "\n...") || strings.HasPrefix(s, "--- ") || strings.Contains(s, "\n--- ") || markerLike.MatchString(s) || loneCR.MatchString(s) ||
		jsonThenOther(s)
}

// lastLine is the last line of s without its line break.
func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// jsonThenOther reports whether s starts with "{" but is not a sequence of JSON values.
func jsonThenOther(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), "{") && jsonDocuments([]byte(s)) == nil
}
