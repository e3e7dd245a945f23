module libcni-conf-oracle

go 1.19
