























class _LlamaModel:






    def __init__(
        self,
        *,
        path_model: str,
        params: llama_cpp.llama_model_params,
        verbose: bool = True,
    ):
        self.path_model = path_model
        self.params = params
        self.verbose = verbose

        self._llama_free_model = llama_cpp._lib.llama_free_model  # type: ignore

        self.model = None

        if not os.path.exists(path_model):
            raise ValueError(f"Model path does not exist: {path_model}")

        self.model = llama_cpp.llama_load_model_from_file(
            self.path_model.encode("utf-8"), self.params
        )

        if self.model is None:
            raise ValueError(f"Failed to load model from file: {path_model}")
