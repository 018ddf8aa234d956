package main

import (
	"fmt"
	"go/constant"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	modelPath = "github.com/ringcheck/mc/model"
	ringPath  = "github.com/ringcheck/mc/ring"
)

// form is how a value is copied, encoded, decoded and shown.
type form int

const (
	boolForm   form = iota // one byte, 0 or 1
	byteForm               // an 8-bit integer: one byte
	varintForm             // another integer: an unsigned varint
	arrayForm              // elements in order
	structForm             // its own methods
	chansForm              // ring.Chans: its own methods
)

// value is the type of a field or of an element, and how it is handled.
type value struct {
	typ  types.Type
	form form
	elem *value // arrayForm
	len  int64  // arrayForm
	// deep holds when an assignment would share storage: a struct with
	// slices or channels in it.
	deep bool
	// read is the expression that reads one message (chansForm).
	read string
}

// field is one field of a derived type.
type field struct {
	goName, name string
	// show is the package function that renders the value, if the tag
	// names one.
	show string
	// perProc holds for a slice: one element per process, val the element.
	perProc bool
	// decl is the field's declared type.
	decl types.Type
	val  value
}

// typeInfo is a type to derive, with its fields.
type typeInfo struct {
	name   string
	fields []field
}

// analyzer classifies the fields of the types to derive.
type analyzer struct {
	pkg *types.Package
	// derived are the types this run derives, by name, which have no
	// methods yet but will.
	derived map[string]bool
}

func (a *analyzer) typeInfo(name string) (typeInfo, error) {
	obj := a.pkg.Scope().Lookup(name)
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return typeInfo{}, fmt.Errorf("no type %s in package %s", name, a.pkg.Name())
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok || tn.IsAlias() {
		return typeInfo{}, fmt.Errorf("type %s is not a struct type", name)
	}
	ti := typeInfo{name: name}
	for i := range st.NumFields() {
		f := st.Field(i)
		fd, err := a.field(f, reflect.StructTag(st.Tag(i)).Get("mc"))
		if err != nil {
			return typeInfo{}, fmt.Errorf("%s.%s: %v", name, f.Name(), err)
		}
		ti.fields = append(ti.fields, fd)
	}
	return ti, nil
}

func (a *analyzer) field(f *types.Var, tag string) (field, error) {
	fd := field{goName: f.Name(), name: lowerFirst(f.Name())}
	tagName, opts, _ := strings.Cut(tag, ",")
	if tagName != "" {
		fd.name = tagName
	}
	if opts != "" {
		show, ok := strings.CutPrefix(opts, "show=")
		if !ok {
			return field{}, fmt.Errorf("tag option %q: the one option is show=func", opts)
		}
		fn, ok := a.pkg.Scope().Lookup(show).(*types.Func)
		if !ok {
			return field{}, fmt.Errorf("show=%s: no function %s in the package", show, show)
		}
		fd.show = fn.Name()
	}
	t := f.Type()
	fd.decl = t
	if _, chans := a.chansOf(t); !chans {
		if s, ok := t.Underlying().(*types.Slice); ok {
			fd.perProc, t = true, s.Elem()
		}
	}
	v, err := a.value(t)
	if err != nil {
		return field{}, err
	}
	if fd.perProc && v.form == chansForm {
		return field{}, fmt.Errorf("a slice of ring.Chans is not supported")
	}
	if fd.show != "" {
		fn := a.pkg.Scope().Lookup(fd.show).(*types.Func)
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() != 1 || sig.Results().Len() != 1 || !types.AssignableTo(v.typ, sig.Params().At(0).Type()) ||
			!types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
			return field{}, fmt.Errorf("show=%s: want func(%s) string", fd.show, types.TypeString(v.typ, types.RelativeTo(a.pkg)))
		}
	}
	fd.val = v
	return fd, nil
}

// value classifies type t.
func (a *analyzer) value(t types.Type) (value, error) {
	if m, ok := a.chansOf(t); ok {
		read, err := a.reader(m)
		return value{typ: t, form: chansForm, deep: true, read: read}, err
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.Bool:
			return value{typ: t, form: boolForm}, nil
		case u.Kind() == types.Uint8 || u.Kind() == types.Int8:
			return value{typ: t, form: byteForm}, nil
		case u.Info()&types.IsInteger != 0:
			return value{typ: t, form: varintForm}, nil
		}
	case *types.Array:
		e, err := a.value(u.Elem())
		if err != nil {
			return value{}, err
		}
		if e.form == chansForm {
			return value{}, fmt.Errorf("an array of ring.Chans is not supported")
		}
		return value{typ: t, form: arrayForm, elem: &e, len: u.Len(), deep: e.deep}, nil
	case *types.Struct:
		named, ok := t.(*types.Named)
		if !ok {
			break
		}
		if named.Obj().Pkg() == a.pkg && a.derived[named.Obj().Name()] {
			return value{typ: t, form: structForm, deep: a.hasStorage(u)}, nil
		}
		for _, m := range []string{"CopyFrom", "AppendTo", "DecodeFrom", "AppendVars"} {
			if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, named.Obj().Pkg(), m); obj == nil {
				return value{}, fmt.Errorf("struct %s has no method %s: derive it in the same run (-type) or write the four methods of model.Derived", named.Obj().Name(), m)
			}
		}
		return value{typ: t, form: structForm, deep: true}, nil
	}
	return value{}, fmt.Errorf("type %s: mc-gen derives bools, integers, arrays, slices (one element per process), ring.Chans and structs with the methods of model.Derived", t)
}

// hasStorage reports whether a struct holds slices or channels, directly
// or in a field, so that copying it must not share them.
func (a *analyzer) hasStorage(st *types.Struct) bool {
	for i := range st.NumFields() {
		t := st.Field(i).Type()
		for {
			arr, ok := t.Underlying().(*types.Array)
			if !ok {
				break
			}
			t = arr.Elem()
		}
		switch u := t.Underlying().(type) {
		case *types.Slice, *types.Map, *types.Pointer, *types.Chan, *types.Interface:
			return true
		case *types.Struct:
			if a.hasStorage(u) {
				return true
			}
		}
	}
	return false
}

// chansOf returns M if t is ring.Chans[M].
func (a *analyzer) chansOf(t types.Type) (types.Type, bool) {
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != ringPath || named.Obj().Name() != "Chans" || named.TypeArgs().Len() != 1 {
		return nil, false
	}
	return named.TypeArgs().At(0), true
}

// reader is the expression that reads one message of type m: ReadTagged
// for ring.Tagged, otherwise the package's one func(*model.Decoder) M.
func (a *analyzer) reader(m types.Type) (string, error) {
	if named, ok := types.Unalias(m).(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == ringPath &&
		named.Obj().Name() == "Tagged" && named.TypeArgs().Len() == 1 {
		return "ring.ReadTagged[" + types.TypeString(named.TypeArgs().At(0), types.RelativeTo(a.pkg)) + "]", nil
	}
	var found []string
	scope := a.pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Recv() != nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), m) {
			continue
		}
		if p, ok := sig.Params().At(0).Type().(*types.Pointer); ok && isModel(p.Elem(), "Decoder") {
			found = append(found, name)
		}
	}
	if len(found) != 1 {
		return "", fmt.Errorf("ring.Chans of %s: want exactly one func(*model.Decoder) %s in the package to read a message, found %d", m, m, len(found))
	}
	return found[0], nil
}

func isModel(t types.Type, name string) bool {
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == modelPath && named.Obj().Name() == name
}

// hasString reports whether a pointer to t has a String() string method.
func hasString(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, "String")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String])
}

// lowerFirst is name with its first letter in lower case.
func lowerFirst(name string) string {
	r, n := utf8.DecodeRuneInString(name)
	return string(unicode.ToLower(r)) + name[n:]
}

// enum returns the constants of type name, in the order of their values,
// if it is an integer type with constants: an enumeration, for which
// mc-gen writes String.
func (a *analyzer) enum(name string) ([]string, bool) {
	tn, ok := a.pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return nil, false
	}
	if b, ok := tn.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return nil, false
	}
	type named struct {
		name string
		val  int64
	}
	var cs []named
	scope := a.pkg.Scope()
	for _, n := range scope.Names() {
		c, ok := scope.Lookup(n).(*types.Const)
		if !ok || !types.Identical(c.Type(), tn.Type()) {
			continue
		}
		v, exact := constant.Int64Val(c.Val())
		if !exact {
			continue
		}
		cs = append(cs, named{n, v})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].val < cs[j].val })
	var out []string
	for i, c := range cs {
		if i > 0 && cs[i-1].val == c.val {
			continue // an alias of the value before: its first name renders it
		}
		out = append(out, c.name)
	}
	return out, len(out) > 0
}
