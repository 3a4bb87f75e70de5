
















































































FIXED_BYTES = 0
LAYERS = []















class QuantLinear(nn.Module):





    def __init__(self, qweight, qzeros, scales, g_idx, bias, bits, groupsize):
        super().__init__()
        if bits != 4:
            raise ValueError(
                f"Exllamav2 kernel supports only bits=4, requested bits={bits}. Something is wrong in the model initialization.")
        self.q_handle = None
        self.q_tensors = None
        self.bits = bits
        self.maxq = 2 ** self.bits - 1
        self.infeatures = qweight.shape[0] // self.bits * 32
        self.outfeatures = qweight.shape[1]
        self.padding = - self.outfeatures % 32
        self.outfeatures = self.outfeatures + self.padding

        self.device = qweight.device
        self.qweight = qweight
        self.qzeros = qzeros
        self.scales = scales
        self.g_idx = g_idx
        self.bias = bias if bias is not None else None
        self.group_size = groupsize

        infeatures = self.infeatures
        outfeatures = self.outfeatures
        assert qweight.shape == (infeatures // 32 * self.bits, outfeatures)
        assert infeatures % self.group_size == 0
        assert qzeros.shape == (infeatures // self.group_size, outfeatures // 32 * self.bits)
        assert scales.shape == (infeatures // self.group_size, outfeatures)
        assert g_idx.shape == (infeatures, ), f"{g_idx.shape}, {infeatures}"

        global FIXED_BYTES, LAYERS
        FIXED_BYTES = max(FIXED_BYTES, self.scratch_space_fixed())
        LAYERS.append(self)
