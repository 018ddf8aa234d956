package checkjson

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// SchemaFile is where the schema generated from Result is committed, in
// this package's directory (go generate writes it).
const SchemaFile = "check.schema.json"

// Schema is the JSON Schema (draft 2020-12) of Result, read off its Go
// type the way encoding/json writes it: a field per json tag, required
// unless omitempty, a nil slice, map or pointer that is not omitempty as
// null, and each named struct type under $defs. A type that encodes
// itself (MarshalJSON, MarshalText) is refused: reflection cannot say
// what it writes.
func Schema() ([]byte, error) {
	g := schemaGen{defs: map[string]any{}, types: map[string]reflect.Type{}}
	root, err := g.object(reflect.TypeFor[Result]())
	if err != nil {
		return nil, err
	}
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = "mc check --json"
	root["$defs"] = g.defs
	b, err := json.MarshalIndent(root, "", "  ")
	return append(b, '\n'), err
}

type schemaGen struct {
	defs  map[string]any
	types map[string]reflect.Type
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// of is the schema of a value of type t.
func (g *schemaGen) of(t reflect.Type) (map[string]any, error) {
	if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) ||
		t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return nil, fmt.Errorf("%s encodes itself; the schema cannot be read off its type", t)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.of(t.Elem())
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.Slice, reflect.Array:
		items, err := g.of(t.Elem())
		return map[string]any{"type": "array", "items": items}, err
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%s: a map's keys must be strings", t)
		}
		values, err := g.of(t.Elem())
		return map[string]any{"type": "object", "additionalProperties": values}, err
	case reflect.Struct:
		return g.ref(t)
	}
	return nil, fmt.Errorf("%s: no JSON Schema for a %s", t, t.Kind())
}

// ref is a reference to t's definition, which it adds to $defs the first
// time.
func (g *schemaGen) ref(t reflect.Type) (map[string]any, error) {
	name := t.Name()
	if name == "" {
		return g.object(t)
	}
	if old, ok := g.types[name]; ok && old != t {
		return nil, fmt.Errorf("two types are called %s: %s and %s", name, old, t)
	}
	if _, ok := g.types[name]; !ok {
		g.types[name] = t
		def, err := g.object(t)
		if err != nil {
			return nil, err
		}
		g.defs[name] = def
	}
	return map[string]any{"$ref": "#/$defs/" + name}, nil
}

// object is the schema of struct type t: its fields, those of an
// embedded struct without a tag among them, as encoding/json writes them.
func (g *schemaGen) object(t reflect.Type) (map[string]any, error) {
	props := map[string]any{}
	required := []string{}
	var add func(t reflect.Type) error
	add = func(t reflect.Type) error {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				if err := add(f.Type); err != nil {
					return err
				}
				continue
			}
			if name == "" {
				name = f.Name
			}
			s, err := g.of(f.Type)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
			}
			omitempty := strings.Contains(","+opts+",", ",omitempty,")
			if k := f.Type.Kind(); !omitempty && (k == reflect.Pointer || k == reflect.Slice || k == reflect.Map) {
				s = map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
			}
			props[name] = s
			if !omitempty {
				required = append(required, name)
			}
		}
		return nil
	}
	if err := add(t); err != nil {
		return nil, err
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}, nil
}
