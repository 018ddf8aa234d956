package ring

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// FIFOParams validates p for a spec on FIFO channels and resolves its
// variant against vs. It refuses reordering channels: the spec's seed
// relies on FIFO order, for the reason why.
func FIFOParams(spec string, vs []model.Variant, p model.Params, why string) (model.Params, error) {
	if err := p.Validate(); err != nil {
		return p, err
	}
	variant, err := model.PickVariant(spec, vs, p.Variant)
	if err != nil {
		return p, err
	}
	if p.Chan != model.FIFO {
		return p, fmt.Errorf("spec %s needs FIFO channels (%s); --chan %s is not supported", spec, why, p.Chan)
	}
	p.Variant = variant
	return p, nil
}
