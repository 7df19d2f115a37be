"""solrec.ai"""
