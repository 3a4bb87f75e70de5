module errdex/go_oracle

go 1.19
