// The numerics lab: one row of scores through softmax in float16, bfloat16, float32, float64 and
// float128, side by side (each panel has a row per precision). The code shows how each library
// computes it: numpy rounds every operation to the array's type; PyTorch's torch.softmax computes
// bfloat16 in float32 and rounds once, while its elementwise operations round each step.
import { pythonList } from './python.js';

const arrays = ({ inputs }) =>
  [
    `x = np.array(${pythonList(inputs.scores)}, dtype=np.float16)  # also float32, float64, float128`,
    `xb = torch.tensor(${pythonList(inputs.scores)}, dtype=torch.bfloat16)`,
  ].join('\n');
const shifted = 'd = x - x.max()\nw = np.exp(d) / np.exp(d).sum()';

export default {
  name: 'numerics',
  fields: [
    { name: 'scores', label: 'field.scores', hint: 'field.scoresHint' },
    { name: 'mask', label: 'field.mask', hint: 'field.maskHint' },
    { name: 'seed', label: 'field.seedScale' },
  ],
  stages: {
    naive: {
      formula: () => '\\operatorname{softmax}(x)_j = \\frac{e^{x_j}}{\\sum_k e^{x_k}}',
      code: (context) =>
        `${arrays(context)}\nw = np.exp(x) / np.exp(x).sum()  # every operation rounds to float16\nwb = torch.exp(xb) / torch.exp(xb).sum()  # each step rounds to bfloat16`,
    },
    shifted: {
      formula: () => '\\frac{e^{x_j - m}}{\\sum_k e^{x_k - m}},\\quad m = \\max_k x_k',
      code: (context) =>
        `${arrays(context)}\n${shifted}\nwb = torch.softmax(xb, dim=0)  # float32 inside, rounded to bfloat16 once`,
    },
    underflow: {
      formula: () => '\\log \\operatorname{softmax}(x)_j = (x_j - m) - \\log \\sum_k e^{x_k - m}',
      code: (context) =>
        `${arrays(context)}\n${shifted}\nlog_w = d - np.log(np.exp(d).sum())\ndb = xb - xb.max()\nlog_wb = db - torch.log(torch.exp(db).sum())`,
    },
    rounding: {
      formula: () => '\\sum_j \\operatorname{fl}(w_j) \\neq 1',
      code: (context) => `${arrays(context)}\n${shifted}\nw.sum()  # np.sum: pairwise, in float32 for float16`,
    },
    masking: {
      formula: () => 'x_j \\leftarrow \\text{fill} \\ \\text{where}\\ \\text{mask}_j = 0',
      code: ({ inputs }) =>
        [
          `x = np.array(${pythonList(inputs.scores)}, dtype=np.float16)`,
          `mask = np.array(${pythonList(inputs.mask)}, dtype=bool)`,
          'for fill in (-np.inf, -1e9, -1e4, np.finfo(x.dtype).min):',
          '    s = np.where(mask, x, fill).astype(x.dtype)  # -1e9 is -inf in float16',
          '    d = s - s.max()',
          '    w = np.exp(d) / np.exp(d).sum()',
          '# PyTorch: torch.softmax(xb.masked_fill(~torch.tensor(mask), fill), dim=0)',
        ].join('\n'),
    },
    scale: {
      formula: () =>
        '\\operatorname{softmax}(q \\cdot k_j) \\ \\text{vs.}\\ \\operatorname{softmax}\\left(\\frac{q \\cdot k_j}{\\sqrt{d}}\\right)',
      code: ({ inputs }) =>
        [
          `np.random.seed(${inputs.seed})`,
          'for d in (4, 64, 1024):',
          '    q = np.random.randn(1, d)',
          '    k = np.random.randn(4, d)',
          '    s = (k @ q.T).ravel()  # in float64, then rounded to each precision',
          '    softmax(s), softmax(s * (1 / np.sqrt(d)))',
        ].join('\n'),
    },
    temperature: {
      formula: () => '\\operatorname{softmax}(x / T),\\quad T \\in \\{0.05, 0.5, 1, 5, 100\\}',
      code: (context) =>
        `${arrays(context)}\nfor T in (0.05, 0.5, 1, 5, 100):\n    softmax(x * (1 / T))  # 1 / T rounded to x.dtype first`,
    },
  },
};
