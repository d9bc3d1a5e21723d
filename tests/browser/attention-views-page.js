// The public functions of attention-stepper/components for the attention views' test to call.
import { renderHeadView, renderModelView } from '../../dist/components/attention-stepper.js';

window.attentionViews = { renderHeadView, renderModelView };
