// Package conformance runs the contract's conformance vectors (conformance/ in the repository; its README
// describes the format) against a splendor.v1 server over gRPC: every case's calls in order, each answer
// compared with the expected one after normalisation, then every whole game as a ReplayGame.
package conformance

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Format is the version of the vectors' format this runner reads.
const Format = 1

// every, in a normalised path, stands for every element of a list.
const every = "*"

// Refusal is an expected refusal: the status code's gRPC name and the ErrorInfo reason.
type Refusal struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// Step is one call of a case. Request and Response are JSON values as encoding/json decodes them (numbers
// kept as json.Number).
type Step struct {
	Method    string
	Request   interface{}
	Response  interface{} // nil when a refusal is expected
	Refusal   *Refusal
	Normalise [][]string
}

// Case is calls checked in order; later ones may use what earlier ones returned.
type Case struct {
	Name           string
	Steps          []Step
	EngineSpecific bool
}

// Game is a whole game, rules only.
type Game struct {
	Name         string        `json:"name"`
	Config       interface{}   `json:"config"`
	InitialState interface{}   `json:"initialState"`
	Actions      []interface{} `json:"actions"`
	Digests      []string      `json:"digests"`
	FinalState   interface{}   `json:"finalState"`
}

// Corpus is every case and game of a vectors directory.
type Corpus struct {
	Contract string
	Cases    []Case
	Games    []Game
}

// Calls counts the calls of every case.
func (c *Corpus) Calls() int {
	calls := 0
	for _, testCase := range c.Cases {
		calls += len(testCase.Steps)
	}
	return calls
}

// Load reads the vectors under dir (the directory holding manifest.json).
func Load(dir string) (*Corpus, error) {
	var manifest struct {
		Format   int    `json:"format"`
		Contract string `json:"contract"`
		Files    struct {
			Calls []string `json:"calls"`
			Games []string `json:"games"`
		} `json:"files"`
	}
	if err := readJSON(filepath.Join(dir, "manifest.json"), &manifest); err != nil {
		return nil, err
	}
	if manifest.Format != Format {
		return nil, fmt.Errorf("%s: format %d; this runner reads format %d", dir, manifest.Format, Format)
	}
	corpus := &Corpus{Contract: manifest.Contract}
	for _, name := range manifest.Files.Calls {
		cases, err := readCases(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		corpus.Cases = append(corpus.Cases, cases...)
	}
	for _, name := range manifest.Files.Games {
		var games struct {
			Games []Game `json:"games"`
		}
		if err := readJSON(filepath.Join(dir, name), &games); err != nil {
			return nil, err
		}
		corpus.Games = append(corpus.Games, games.Games...)
	}
	return corpus, nil
}

func readJSON(path string, into interface{}) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	decoder := json.NewDecoder(file)
	decoder.UseNumber()
	if err := decoder.Decode(into); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func readCases(path string) ([]Case, error) {
	var document struct {
		States map[string]interface{} `json:"states"`
		Cases  []struct {
			Name           string `json:"name"`
			EngineSpecific bool   `json:"engineSpecific"`
			Steps          []struct {
				Method    string      `json:"method"`
				Request   interface{} `json:"request"`
				Response  interface{} `json:"response"`
				Error     *Refusal    `json:"error"`
				Normalise [][]string  `json:"normalise"`
			} `json:"steps"`
		} `json:"cases"`
	}
	if err := readJSON(path, &document); err != nil {
		return nil, err
	}
	cases := make([]Case, 0, len(document.Cases))
	for _, raw := range document.Cases {
		testCase := Case{Name: raw.Name, EngineSpecific: raw.EngineSpecific}
		for _, step := range raw.Steps {
			request, err := withStates(step.Request, document.States)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", path, raw.Name, err)
			}
			response, err := withStates(step.Response, document.States)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", path, raw.Name, err)
			}
			testCase.Steps = append(testCase.Steps, Step{step.Method, request, response, step.Error, step.Normalise})
		}
		cases = append(cases, testCase)
	}
	return cases, nil
}

// withStates replaces every {"$state": NAME} by that state.
func withStates(value interface{}, states map[string]interface{}) (interface{}, error) {
	switch value := value.(type) {
	case []interface{}:
		out := make([]interface{}, len(value))
		for i, item := range value {
			replaced, err := withStates(item, states)
			if err != nil {
				return nil, err
			}
			out[i] = replaced
		}
		return out, nil
	case map[string]interface{}:
		if name, ok := value["$state"]; ok {
			state, found := states[fmt.Sprint(name)]
			if !found {
				return nil, fmt.Errorf("no state named %v", name)
			}
			return state, nil
		}
		out := make(map[string]interface{}, len(value))
		for key, item := range value {
			replaced, err := withStates(item, states)
			if err != nil {
				return nil, err
			}
			out[key] = replaced
		}
		return out, nil
	}
	return value, nil
}

// resolve replaces every {"$from": [STEP, KEY_OR_INDEX...]} by the value at that path of an earlier answer.
func resolve(value interface{}, answers []interface{}) (interface{}, error) {
	switch value := value.(type) {
	case []interface{}:
		out := make([]interface{}, len(value))
		for i, item := range value {
			replaced, err := resolve(item, answers)
			if err != nil {
				return nil, err
			}
			out[i] = replaced
		}
		return out, nil
	case map[string]interface{}:
		if from, ok := value["$from"]; ok {
			found, err := lookUp(from, answers)
			if err != nil {
				return nil, err
			}
			switch tamper := value["$tamper"]; tamper {
			case nil:
				return found, nil
			case "flip-last-byte":
				return flipLastByte(found)
			default:
				return nil, fmt.Errorf("unknown $tamper %v", tamper)
			}
		}
		out := make(map[string]interface{}, len(value))
		for key, item := range value {
			replaced, err := resolve(item, answers)
			if err != nil {
				return nil, err
			}
			out[key] = replaced
		}
		return out, nil
	}
	return value, nil
}

func lookUp(from interface{}, answers []interface{}) (interface{}, error) {
	path, ok := from.([]interface{})
	if !ok || len(path) == 0 {
		return nil, fmt.Errorf("$from %v is not a path", from)
	}
	step, err := index(path[0])
	if err != nil || step >= len(answers) || answers[step] == nil {
		return nil, fmt.Errorf("$from %v: step %v has no response to take it from", from, path[0])
	}
	found := answers[step]
	for _, key := range path[1:] {
		switch container := found.(type) {
		case map[string]interface{}:
			name, isName := key.(string)
			if found, ok = container[name]; !isName || !ok {
				return nil, fmt.Errorf("$from %v: the response has nothing at %v", from, key)
			}
		case []interface{}:
			position, err := index(key)
			if err != nil || position >= len(container) {
				return nil, fmt.Errorf("$from %v: the response has nothing at %v", from, key)
			}
			found = container[position]
		default:
			return nil, fmt.Errorf("$from %v: the response has nothing at %v", from, key)
		}
	}
	return found, nil
}

func index(value interface{}) (int, error) {
	number, ok := value.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%v is not an index", value)
	}
	position, err := number.Int64()
	if err != nil || position < 0 {
		return 0, fmt.Errorf("%v is not an index", value)
	}
	return int(position), nil
}

// flipLastByte flips the lowest bit of the last byte of base64 bytes (standard or URL-safe alphabet).
func flipLastByte(value interface{}) (interface{}, error) {
	text, ok := value.(string)
	if !ok {
		return nil, fmt.Errorf("$tamper: %v is not bytes", value)
	}
	text = strings.NewReplacer("-", "+", "_", "/").Replace(strings.TrimRight(text, "="))
	data, err := base64.RawStdEncoding.DecodeString(text)
	if err != nil || len(data) == 0 {
		return nil, fmt.Errorf("$tamper: no bytes to flip in %q", text)
	}
	data[len(data)-1] ^= 1
	return base64.StdEncoding.EncodeToString(data), nil
}

// normalised replaces what each path reaches by the empty value of its JSON type.
func normalised(value interface{}, paths [][]string) interface{} {
	for _, path := range paths {
		value = normalise(value, path)
	}
	return value
}

func normalise(value interface{}, path []string) interface{} {
	if len(path) == 0 {
		return placeholder(value)
	}
	head, rest := path[0], path[1:]
	if head == every {
		list, ok := value.([]interface{})
		if !ok {
			return value
		}
		out := make([]interface{}, len(list))
		for i, item := range list {
			out[i] = normalise(item, rest)
		}
		return out
	}
	object, ok := value.(map[string]interface{})
	if !ok {
		return value
	}
	item, ok := object[head]
	if !ok {
		return value
	}
	out := make(map[string]interface{}, len(object))
	for key, kept := range object {
		out[key] = kept
	}
	out[head] = normalise(item, rest)
	return out
}

func placeholder(value interface{}) interface{} {
	switch value.(type) {
	case bool:
		return false
	case json.Number, float64:
		return json.Number("0")
	case string:
		return ""
	case map[string]interface{}:
		return map[string]interface{}{}
	case []interface{}:
		return []interface{}{}
	}
	return value
}

// missing lists the normalised places the expected response has and the actual one lacks.
func missing(expected, actual interface{}, paths [][]string) []string {
	var found []string
	for _, path := range paths {
		found = append(found, missingAt(expected, actual, path, "")...)
	}
	return found
}

func missingAt(expected, actual interface{}, path []string, where string) []string {
	if len(path) == 0 {
		return nil
	}
	head, rest := path[0], path[1:]
	if head == every {
		want, _ := expected.([]interface{})
		got, _ := actual.([]interface{})
		var found []string
		for i := 0; i < len(want) && i < len(got); i++ {
			found = append(found, missingAt(want[i], got[i], rest, fmt.Sprintf("%s[%d]", where, i))...)
		}
		return found
	}
	want, ok := expected.(map[string]interface{})
	if !ok {
		return nil
	}
	wanted, ok := want[head]
	if !ok {
		return nil
	}
	here := head
	if where != "" {
		here = where + "." + head
	}
	got, _ := actual.(map[string]interface{})
	present, ok := got[head]
	if !ok {
		return []string{here}
	}
	return missingAt(wanted, present, rest, here)
}

// firstDifference names the first place where two JSON values differ ("" when they are equal).
func firstDifference(expected, actual interface{}, where string) string {
	label := where
	if label == "" {
		label = "the response"
	}
	switch want := expected.(type) {
	case map[string]interface{}:
		got, ok := actual.(map[string]interface{})
		if !ok {
			break
		}
		keys := sortedKeys(want, got)
		for _, key := range keys {
			here := key
			if where != "" {
				here = where + "." + key
			}
			wanted, inWant := want[key]
			present, inGot := got[key]
			switch {
			case !inGot:
				return fmt.Sprintf("%s: expected %s, got nothing", here, short(wanted))
			case !inWant:
				return fmt.Sprintf("%s: expected nothing, got %s", here, short(present))
			}
			if difference := firstDifference(wanted, present, here); difference != "" {
				return difference
			}
		}
		return ""
	case []interface{}:
		got, ok := actual.([]interface{})
		if !ok {
			break
		}
		for i := 0; i < len(want) && i < len(got); i++ {
			if difference := firstDifference(want[i], got[i], fmt.Sprintf("%s[%d]", where, i)); difference != "" {
				return difference
			}
		}
		if len(want) != len(got) {
			return fmt.Sprintf("%s: expected %d items, got %d", label, len(want), len(got))
		}
		return ""
	}
	if short(expected) != short(actual) {
		return fmt.Sprintf("%s: expected %s, got %s", label, short(expected), short(actual))
	}
	return ""
}

func sortedKeys(a, b map[string]interface{}) []string {
	keys := make([]string, 0, len(a)+len(b))
	for key := range a {
		keys = append(keys, key)
	}
	for key := range b {
		if _, ok := a[key]; !ok {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	return keys
}

func short(value interface{}) string {
	text, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprint(value)
	}
	if len(text) > 200 {
		return string(text[:197]) + "..."
	}
	return string(text)
}
