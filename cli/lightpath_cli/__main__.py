from lightpath_cli.app import main

main()
