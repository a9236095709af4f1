import { DesignForm } from './DesignForm';

/**
 * Advanced mode's catchment view: for now the design form's catchment and
 * fall fields, without the system, loading and grating, which the channels
 * screen holds (spec section 2, "Advanced mode hides system, loading and
 * grating selectors"). The irregular catchment editor, inflows and
 * accessories come here (web/src/catchment).
 */
export function AdvancedCatchment() {
  return <DesignForm advanced />;
}
