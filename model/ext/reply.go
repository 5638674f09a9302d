package ext

import (
	"encoding/json"
	"fmt"
	"strconv"
)

func marshal(v any) ([]byte, error)   { return json.Marshal(v) }
func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
func isSpace(c byte) bool             { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
func isNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
func errAt(i int, what string) error { return fmt.Errorf("at byte %d: %s", i+1, what) }
func want(i int, what string, c byte) error {
	return errAt(i, fmt.Sprintf("want %s, found %q", what, c))
}

// scalar returns the token at line[i:]: null (null true), or the bytes
// of a number (empty when there is none).
func scalar(line []byte, i int) (tok []byte, null bool) {
	if len(line)-i >= 4 && string(line[i:i+4]) == "null" {
		return line[i : i+4], true
	}
	j := i
	for j < len(line) && isNumByte(line[j]) {
		j++
	}
	return line[i:j], false
}

// reply is a parsed reply.
type reply struct {
	starts  []int64
	wake    float64 // with hasWake
	hasWake bool
	minFree int64 // with hasMin
	hasMin  bool
}

// parseReply reads a reply line: a JSON object with the optional members
// "start" (an array of job ids), "wake" (a number, or null for none) and
// "min_free" (a non-negative integer, or null), and nothing else. It is
// hand-written, as the encoder: a reply is read at every instant.
func parseReply(line []byte) (r reply, err error) {
	bad := func(e error) (reply, error) { return reply{}, e }
	i := 0
	n := len(line)
	skip := func() {
		for i < n && isSpace(line[i]) {
			i++
		}
	}
	skip()
	if i == n || line[i] != '{' {
		return bad(fmt.Errorf("want a JSON object"))
	}
	i++
	skip()
	var seen uint8
	if i < n && line[i] == '}' {
		i++
	} else {
		for {
			skip()
			if i == n || line[i] != '"' {
				if i == n {
					return bad(errAt(i, "unexpected end"))
				}
				return bad(want(i, "a member name", line[i]))
			}
			j := i + 1
			for j < n && line[j] != '"' && line[j] != '\\' {
				j++
			}
			if j == n || line[j] != '"' {
				return bad(errAt(i, "bad member name"))
			}
			key := string(line[i+1 : j])
			i = j + 1
			bit := uint8(0)
			switch key {
			case "start":
				bit = 1
			case "wake":
				bit = 2
			case "min_free":
				bit = 4
			}
			if seen&bit != 0 {
				return bad(fmt.Errorf("member %q given twice", key))
			}
			seen |= bit
			skip()
			if i == n || line[i] != ':' {
				return bad(errAt(i, "want ':'"))
			}
			i++
			skip()
			switch key {
			case "start":
				if i == n || line[i] != '[' {
					return bad(fmt.Errorf("start: want an array of job ids"))
				}
				i++
				skip()
				if i < n && line[i] == ']' {
					i++
					break
				}
				for {
					skip()
					j := i
					for j < n && isNumByte(line[j]) {
						j++
					}
					id, err := strconv.ParseInt(string(line[i:j]), 10, 64)
					if err != nil {
						return bad(fmt.Errorf("start: %q is not a job id (an integer)", string(line[i:min(j+1, n)])))
					}
					r.starts = append(r.starts, id)
					i = j
					skip()
					if i < n && line[i] == ',' {
						i++
						continue
					}
					if i < n && line[i] == ']' {
						i++
						break
					}
					return bad(fmt.Errorf("start: want ',' or ']' after a job id"))
				}
			case "wake", "min_free":
				tok, null := scalar(line, i)
				i += len(tok)
				if null {
					break
				}
				if key == "wake" {
					f, err := strconv.ParseFloat(string(tok), 64)
					if err != nil {
						return bad(fmt.Errorf("wake: want a number or null"))
					}
					r.wake, r.hasWake = f, true
					break
				}
				k, err := strconv.ParseInt(string(tok), 10, 64)
				if err != nil || k < 0 {
					return bad(fmt.Errorf("min_free: want a non-negative integer or null"))
				}
				r.minFree, r.hasMin = k, true
			default:
				return bad(fmt.Errorf("unknown member %q (want start, wake, min_free)", key))
			}
			skip()
			if i < n && line[i] == ',' {
				i++
				continue
			}
			if i < n && line[i] == '}' {
				i++
				break
			}
			if i == n {
				return bad(errAt(i, "unexpected end"))
			}
			return bad(want(i, "',' or '}'", line[i]))
		}
	}
	skip()
	if i != n {
		return bad(errAt(i, "text after the object"))
	}
	return r, nil
}
